#!/usr/bin/env bash
# Starts a throwaway PostgreSQL cluster for the tests (Debian's `postgresql` package) on a
# local port, and prints the URL to use. Usage: url=$(bash scripts/postgres-test.sh start DIR)
# and later: bash scripts/postgres-test.sh stop DIR
set -euo pipefail
cmd=$1 dir=$2
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -x "$bin/pg_ctl" ] || { echo "no PostgreSQL server installed (apt-get install postgresql)" >&2; exit 1; }
port=${TABLIER_PG_PORT:-54329}
as_pg() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
case $cmd in
  start)
    rm -rf "$dir"; mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown postgres "$dir"
    as_pg "$bin/initdb" -D "$dir/data" -A trust -U postgres >/dev/null
    as_pg "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w \
      -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null
    as_pg "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres tablier_test
    echo "postgres://postgres@127.0.0.1:$port/tablier_test"
    ;;
  stop)
    as_pg "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
    ;;
esac
