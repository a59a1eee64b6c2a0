#!/usr/bin/env bash
# Installs the Debian packages Burrow needs, when they are missing.
set -euo pipefail

packages=(liblmdb-dev lmdb-utils libsodium-dev libsqlite3-dev libpq-dev pkg-config)
# The server the sync tests start for themselves, and `ip` for the tests of machines apart
# (network namespaces): without them those tests are skipped, with the reason.
optional=(postgresql iproute2)

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

install_missing "${packages[@]}"
if ! command -v swift >/dev/null 2>&1; then
    echo "Swift is not on PATH; install the Swift 6.3 toolchain first." >&2
    exit 1
fi
install_missing "${optional[@]}" || echo "Could not install ${optional[*]}: the tests that need it will be skipped." >&2
