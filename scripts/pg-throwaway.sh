#!/bin/sh
# scripts/pg-throwaway.sh — a throwaway PostgreSQL for the tests.
#   sh scripts/pg-throwaway.sh start DIR   initdb into DIR/data, start postgres on
#                                          127.0.0.1 (a free port), print its URI
#   sh scripts/pg-throwaway.sh down DIR    stop it, keeping its data (a restart test)
#   sh scripts/pg-throwaway.sh up DIR      start it again on the same port
#   sh scripts/pg-throwaway.sh createdb DIR NAME   a fresh database; prints its URI
#   sh scripts/pg-throwaway.sh stop DIR    stop it and remove DIR
# DIR must not exist yet (start creates it) and its parent must be
# traversable by the `postgres` user when run as root (initdb and postgres
# refuse root: they run as `postgres` through runuser).  Trust
# authentication on loopback only; fsync on (the durability tests rely on
# it); the socket lives in DIR.  The URI: postgresql://tav@127.0.0.1:PORT/postgres
set -e
cmd=$1
dir=$2
if [ -z "$cmd" ] || [ -z "$dir" ]; then
    echo "usage: $0 start|down|up|createdb|stop DIR [NAME]" >&2
    exit 2
fi

# The server binaries: Debian's /usr/lib/postgresql/<version>/bin (newest
# version), else whatever is on PATH.
bin=""
for d in /usr/lib/postgresql/*/bin; do
    [ -x "$d/initdb" ] && bin=$d
done
if [ -z "$bin" ]; then
    p=$(command -v initdb 2>/dev/null || true)
    [ -n "$p" ] && bin=$(dirname "$p")
fi
if [ -z "$bin" ]; then
    echo "pg-throwaway: no initdb (install the Debian package postgresql)" >&2
    exit 1
fi

# Run a server binary as an unprivileged user when we are root.
as_pg() {
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

uri() { echo "postgresql://tav@127.0.0.1:$(cat "$dir/port")/${1:-postgres}"; }

# Start postgres on the port in DIR/port; 0 when it answers.
launch() {
    as_pg "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w -t 60 -s \
        -o "-p $(cat "$dir/port") -c listen_addresses=127.0.0.1 -c unix_socket_directories=$dir -c fsync=on -c synchronous_commit=on -c max_connections=200 -c shared_buffers=32MB" \
        start >/dev/null 2>&1
}

case $cmd in
start)
    if [ -e "$dir" ]; then
        echo "pg-throwaway: $dir exists already" >&2
        exit 1
    fi
    mkdir -p "$dir"
    chmod 700 "$dir"
    if [ "$(id -u)" -eq 0 ]; then
        chown postgres: "$dir"
        if ! runuser -u postgres -- test -w "$dir"; then
            echo "pg-throwaway: the postgres user cannot reach $dir (a parent folder is not traversable)" >&2
            exit 1
        fi
    fi
    as_pg "$bin/initdb" -D "$dir/data" -U tav --auth-local=trust --auth-host=trust -E UTF8 \
        --no-locale --no-sync >"$dir/initdb.log" 2>&1 || {
        echo "pg-throwaway: initdb failed:" >&2
        cat "$dir/initdb.log" >&2
        exit 1
    }
    # A random port; another on a clash (up to 8 tries).
    tries=0
    while :; do
        port=$(($(od -An -N2 -tu2 /dev/urandom | tr -d ' ') % 20000 + 30000))
        echo "$port" >"$dir/port"
        if launch; then
            break
        fi
        tries=$((tries + 1))
        if [ "$tries" -ge 8 ]; then
            echo "pg-throwaway: postgres did not start:" >&2
            tail -n 20 "$dir/log" >&2
            exit 1
        fi
    done
    uri
    ;;
down)
    as_pg "$bin/pg_ctl" -D "$dir/data" -m fast -w -s stop
    ;;
up)
    launch || {
        echo "pg-throwaway: postgres did not start again:" >&2
        tail -n 20 "$dir/log" >&2
        exit 1
    }
    ;;
createdb)
    name=$3
    case $name in
    '' | *[!a-z0-9_]*)
        echo "pg-throwaway: a database name is [a-z0-9_]+" >&2
        exit 2
        ;;
    esac
    psql -X -q -v ON_ERROR_STOP=1 -d "$(uri)" -c "CREATE DATABASE $name" >/dev/null
    uri "$name"
    ;;
stop)
    if [ -f "$dir/data/postmaster.pid" ]; then
        as_pg "$bin/pg_ctl" -D "$dir/data" -m fast -w -s stop || true
    fi
    rm -rf "$dir"
    ;;
*)
    echo "usage: $0 start|down|up|createdb|stop DIR [NAME]" >&2
    exit 2
    ;;
esac
