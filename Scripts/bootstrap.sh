#!/usr/bin/env bash
# Installs the Debian packages Burrow needs, when they are missing.
#
#   Scripts/bootstrap.sh           what the library and the burrow tool need to build and run
#   Scripts/bootstrap.sh --tests   and what the test suite uses: lmdb-utils (mdb_stat, which
#                                  tests compare with), and, where they can be installed, the
#                                  PostgreSQL server the sync tests start and iproute2 (ip) for
#                                  the tests of machines apart; without those, their tests skip
#   Scripts/bootstrap.sh --bench   and what the benchmarks compare with: SQLite and PostgreSQL
set -euo pipefail

library=(liblmdb-dev libsodium-dev libpq-dev pkg-config)
tests=(lmdb-utils)
tests_optional=(postgresql iproute2)
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
        install_missing "${tests_optional[@]}" || echo "Could not install ${tests_optional[*]}: the tests that need them will be skipped." >&2
        ;;
    --bench)
        install_missing "${bench[@]}"
        install_missing "${bench_optional[@]}" || echo "Could not install ${bench_optional[*]}: the benchmarks that need it will be skipped." >&2
        ;;
    "") ;;
    *) echo "usage: Scripts/bootstrap.sh [--tests | --bench]" >&2; exit 2 ;;
esac
