#!/usr/bin/env bash
# Builds the benchmarks in release mode and runs them: Burrow, raw LMDB and SQLite on the same
# workload in one run, printed side by side.
#
# Usage: Scripts/bench.sh [--rounds R] [N] [directory]
#        Scripts/bench.sh --sync [N]   the sync step, against a PostgreSQL server of its own
#   N          objects in the workload (default 1000000)
#   directory  where the files go (default: a temporary folder, removed afterwards)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -f Scripts/bootstrap.sh ]; then
    bash Scripts/bootstrap.sh
fi

# SwiftPM keeps the build plan of a path dependency when only its files change: drop the plan so
# that files added to the library are compiled.
rm -f Benchmarks/.build/release.yaml
swift build -c release --package-path Benchmarks
bin_path="$(swift build -c release --package-path Benchmarks --show-bin-path)"
if [ "${1:-}" = "--sync" ]; then
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
    "$bin_path/BurrowBench" --sync "host=$folder port=$port user=burrow dbname=postgres" "${@:-1000000}"
    exit
fi
"$bin_path/BurrowBench" "${@:-1000000}"
