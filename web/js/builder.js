// A turn built die by die: the hops chosen so far, matched against the legal actions' hops
// (as a multiset: the order the player moves the checkers in does not matter).
export function sameHop(a, b) { return a[0] === b[0] && a[1] === b[1]; }

export function minus(hops, chosen) {
  const left = hops.map((h) => [...h]);
  for (const c of chosen) {
    const i = left.findIndex((h) => sameHop(h, c));
    if (i < 0) return null;
    left.splice(i, 1);
  }
  return left;
}

export function candidates(actions, chosen) {
  return actions.filter((a) => a.hops.length && minus(a.hops, chosen));
}

export function complete(actions, chosen) {
  if (!chosen.length) return null;
  const done = actions.filter((a) => a.hops.length === chosen.length && minus(a.hops, chosen));
  return done.find((a) => a.hops.every((h, i) => sameHop(h, chosen[i]))) || done[0] || null;
}

// The next hops possible: from the candidates' remaining hops, those whose start `has` a checker.
export function nextHops(actions, chosen, has) {
  const out = [];
  for (const a of candidates(actions, chosen)) {
    for (const h of minus(a.hops, chosen)) if (has(h[0]) && !out.some((o) => sameHop(o, h))) out.push(h);
  }
  return out;
}
