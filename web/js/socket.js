import { serverError } from './i18n.js';

// The game's WebSocket: versioned states, acked actions, ping/lag, reconnect with the last `v`.
export class GameSocket {
  constructor(id, token, handlers) {
    this.id = id;
    this.token = token;
    this.h = handlers; // { state(s), hello(you), status({connected, lag, reconnecting}) }
    this.v = null;
    this.ackN = 0;
    this.pending = new Map();
    this.lag = null;
    this.tries = 0;
    this.closed = false;
    this.connect();
  }

  url() {
    const proto = location.protocol === 'https:' ? 'wss' : 'ws';
    const q = new URLSearchParams();
    if (this.token) q.set('token', this.token);
    if (this.v !== null) q.set('v', String(this.v));
    return `${proto}://${location.host}/ws/${this.id}?${q}`;
  }

  connect() {
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onopen = () => {
      this.tries = 0;
      this.h.status({ connected: true, lag: this.lag });
      this.ping();
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.ping(), 2500);
    };
    ws.onmessage = (ev) => {
      let m;
      try { m = JSON.parse(ev.data); } catch { return; }
      if (m.t === 'hello') this.h.hello(m.you);
      else if (m.t === 'state') {
        if (this.v === null || m.v >= this.v) { this.v = m.v; this.h.state(m); }
      } else if (m.t === 'pong') {
        if (this.pingAt) {
          const ms = performance.now() - this.pingAt;
          this.lag = this.lag === null ? ms : this.lag * 0.7 + ms * 0.3;
          this.pingAt = null;
          this.h.status({ connected: true, lag: this.lag });
        }
      } else if (m.t === 'ack' || m.t === 'error') {
        const p = this.pending.get(m.ack);
        if (p) {
          this.pending.delete(m.ack);
          if (m.t === 'ack') p.resolve(); else p.reject(new Error(serverError(m.reason, m.code)));
        } else if (m.t === 'error') this.h.error?.(serverError(m.reason, m.code));
      }
    };
    ws.onclose = () => {
      clearInterval(this.pinger);
      for (const p of this.pending.values()) p.reject(new Error(serverError('', 'connection-lost')));
      this.pending.clear();
      if (this.closed) return;
      this.tries++;
      this.h.status({ connected: false, reconnecting: true });
      setTimeout(() => this.connect(), Math.min(500 * this.tries, 4000));
    };
  }

  ping() {
    if (this.ws?.readyState !== WebSocket.OPEN) return;
    if (this.pingAt && performance.now() - this.pingAt < 10000) return;
    this.pingAt = performance.now();
    this.ws.send(JSON.stringify({ t: 'ping' }));
  }

  act(action) {
    return new Promise((resolve, reject) => {
      if (this.ws?.readyState !== WebSocket.OPEN) { reject(new Error(serverError('', 'not-connected'))); return; }
      const ack = ++this.ackN;
      this.pending.set(ack, { resolve, reject });
      this.ws.send(JSON.stringify({ t: 'act', action, ack }));
    });
  }
}
