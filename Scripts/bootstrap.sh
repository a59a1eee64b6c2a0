#!/usr/bin/env bash
# Installs the Debian packages Burrow needs, when they are missing.
#
#   Scripts/bootstrap.sh           what the library and the burrow tool need to build and run
#   Scripts/bootstrap.sh --tests   and what the test suite uses: lmdb-utils (mdb_stat, which
#                                  tests compare with), and, where they can be installed, the
#                                  PostgreSQL server the sync tests start, iproute2 (ip) for
#                                  the tests of machines apart, tmux and chromium for the tool's
#                                  shell and report; without those, their tests skip
#   Scripts/bootstrap.sh --bench   and what the benchmarks compare with: SQLite and PostgreSQL
set -euo pipefail

library=(liblmdb-dev libsodium-dev libpq-dev libedit-dev pkg-config)
tests=(lmdb-utils)
# The tests that drive `burrow shell` in a terminal (tmux) and render `burrow report` in a
# browser (chromium) skip, saying why, without them.
tests_optional=(postgresql iproute2 tmux chromium)
bench=(libsqlite3-dev sqlite3 lmdb-utils)
bench_optional=(postgresql)

# Installs those of the packages named that are missing; returns apt-get's status.
install_missing() {
    local missing=()
    for package in "$@"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "Installing: ${missing[*]}"
    local sudo_cmd=""
    if [ "$(id -u)" -ne 0 ]; then sudo_cmd="sudo"; fi
    $sudo_cmd apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
}

install_missing "${library[@]}"
if ! command -v swift >/dev/null 2>&1; then
    echo "Swift is not on PATH; install the Swift 6.3 toolchain first." >&2
    exit 1
fi
case "${1:-}" in
    --tests)
        install_missing "${tests[@]}"
        for package in "${tests_optional[@]}"; do
            install_missing "$package" || echo "Could not install $package: the tests that need it will be skipped." >&2
        done
        ;;
    --bench)
        install_missing "${bench[@]}"
        install_missing "${bench_optional[@]}" || echo "Could not install ${bench_optional[*]}: the benchmarks that need it will be skipped." >&2
        ;;
    "") ;;
    *) echo "usage: Scripts/bootstrap.sh [--tests | --bench]" >&2; exit 2 ;;
esac
