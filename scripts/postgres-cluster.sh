#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests: `start DIR` makes one in DIR, owned by an unprivileged user, listening
# on a free loopback port only, and prints its URL (postgres://saessak@127.0.0.1:PORT/saessak); `stop DIR` stops it
# and deletes DIR. `make test` starts one, points SAESSAK_TEST_POSTGRES_URL at it, and stops it afterwards.
# Debian's postgresql package provides the server; initdb refuses to run as root, so as root the cluster runs as
# `nobody`.
set -euo pipefail

command=${1:?usage: postgres-cluster.sh start|stop DIR}
dir=${2:?usage: postgres-cluster.sh start|stop DIR}

# The unprivileged owner cannot enter the caller's folder (a root-only temporary clone): work from /.
dir=$(realpath -m "$dir")
cd /
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
if [ -z "$bin" ]; then
    echo "PostgreSQL's server is not installed: apt-get install postgresql (make test does it)" >&2
    exit 1
fi

as_owner() {
    if [ "$(id -u)" -eq 0 ]; then runuser -u nobody -- "$@"; else "$@"; fi
}

case "$command" in
start)
    mkdir -p "$dir"
    [ "$(id -u)" -eq 0 ] && chown nobody:nogroup "$dir"
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    as_owner "$bin/initdb" -D "$dir/data" -U saessak --auth=trust --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; exit 1; }
    # In its configuration file, so that a plain `pg_ctl start` (a test that takes the database away and brings it
    # back) starts it the same way. fsync stays on: the kill -9 tests count on an acknowledged write being on disk.
    as_owner tee -a "$dir/data/postgresql.conf" >/dev/null <<CONF
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$dir'
max_connections = 200
shared_buffers = 128MB
CONF
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start >/dev/null \
        || { cat "$dir/server.log" >&2; exit 1; }
    as_owner "$bin/createdb" -h 127.0.0.1 -p "$port" -U saessak saessak
    echo "postgres://saessak@127.0.0.1:$port/saessak?sslmode=disable"
    ;;
stop)
    if [ -d "$dir/data" ]; then
        as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
    ;;
*)
    echo "usage: postgres-cluster.sh start|stop DIR" >&2
    exit 2
    ;;
esac
