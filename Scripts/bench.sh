#!/usr/bin/env bash
# Builds the benchmarks in release mode and runs them: Burrow, raw LMDB and SQLite on the same
# workload in one run, printed side by side.
#
# Usage: Scripts/bench.sh [--rounds R] [N] [directory]
#        Scripts/bench.sh --sync [N]   the sync step, against a PostgreSQL server of its own
#        Scripts/bench.sh --scale      1, 4 and 16 synced processes over a server and its replica
#        Scripts/bench.sh --tool [N]   burrow export and import of N rows against sqlite3's CSV
#                                      export and .import (default 1000000)
#   N          objects in the workload (default 1000000)
#   directory  where the files go (default: a temporary folder, removed afterwards)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -f Scripts/bootstrap.sh ]; then
    bash Scripts/bootstrap.sh --bench
fi

if [ "${1:-}" = "--tool" ]; then
    swift build -c release --product burrow
    folder="$(mktemp -d /tmp/burrow-bench-tool-XXXXXX)"
    trap 'rm -rf "$folder"' EXIT
    Benchmarks/Tool/tool-bench.sh "$(swift build -c release --show-bin-path)/burrow" "${2:-1000000}" "$folder"
    exit
fi

# SwiftPM keeps the build plan of a path dependency when only its files change: drop the plan so
# that files added to the library are compiled.
rm -f Benchmarks/.build/release.yaml
swift build -c release --package-path Benchmarks
bin_path="$(swift build -c release --package-path Benchmarks --show-bin-path)"
if [ "${1:-}" = "--sync" ] || [ "${1:-}" = "--scale" ]; then
    mode="$1"
    shift
    # A throwaway server: initdb into a temporary folder, a Unix socket there, run as postgres
    # when this script runs as root (PostgreSQL refuses root).
    pg_bin="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
    folder="$(mktemp -d /tmp/burrow-bench-pg-XXXXXX)"
    run_as=()
    if [ "$(id -u)" -eq 0 ]; then
        chown postgres "$folder"
        run_as=(runuser -u postgres --)
    fi
    port=54329
    "${run_as[@]}" "$pg_bin/initdb" -D "$folder/data" -U burrow --auth=trust -E UTF8 --locale=C >/dev/null
    "${run_as[@]}" "$pg_bin/pg_ctl" -D "$folder/data" -l "$folder/server.log" \
        -o "-k $folder -c listen_addresses='' -p $port" -w start >/dev/null
    stop_server() {
        "${run_as[@]}" "$pg_bin/pg_ctl" -D "$folder/data" -m immediate -w stop >/dev/null || true
        rm -rf "$folder"
    }
    trap stop_server EXIT
    if [ "$mode" = "--sync" ]; then
        "$bin_path/BurrowBench" --sync "host=$folder port=$port user=burrow dbname=postgres" "${@:-1000000}"
        exit
    fi
    # A streaming replica of it, as an operator makes one.
    replica_port=54331
    mkdir -p "$folder/replica-socket"
    [ "$(id -u)" -eq 0 ] && chown postgres "$folder/replica-socket"
    "${run_as[@]}" "$pg_bin/pg_basebackup" -h "$folder" -p $port -U burrow -D "$folder/replica" -R -X stream -c fast >/dev/null
    "${run_as[@]}" "$pg_bin/pg_ctl" -D "$folder/replica" -l "$folder/replica.log" \
        -o "-k $folder/replica-socket -c listen_addresses='' -p $replica_port -c hot_standby=on" -w start >/dev/null
    stop_both() {
        "${run_as[@]}" "$pg_bin/pg_ctl" -D "$folder/replica" -m immediate -w stop >/dev/null || true
        stop_server
    }
    trap stop_both EXIT
    "$bin_path/BurrowBench" --scale "host=$folder port=$port user=burrow dbname=postgres" \
        "host=$folder/replica-socket port=$replica_port user=burrow dbname=postgres" "$folder/data" "$folder/replica"
    exit
fi
"$bin_path/BurrowBench" "${@:-1000000}"
