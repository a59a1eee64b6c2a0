#!/usr/bin/env bash
# Installs the Debian packages Burrow needs, when they are missing.
set -euo pipefail

packages=(liblmdb-dev lmdb-utils libsodium-dev libsqlite3-dev libpq-dev pkg-config)
# The server the sync tests start for themselves: without it they are skipped, with the reason.
optional=(postgresql)
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "Installing: ${missing[*]}"
    sudo_cmd=""
    if [ "$(id -u)" -ne 0 ]; then sudo_cmd="sudo"; fi
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi
if ! command -v swift >/dev/null 2>&1; then
    echo "Swift is not on PATH; install the Swift 6.3 toolchain first." >&2
    exit 1
fi
missing_optional=()
for package in "${optional[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing_optional+=("$package")
done
if [ ${#missing_optional[@]} -gt 0 ]; then
    echo "Installing: ${missing_optional[*]}"
    sudo_cmd=""
    if [ "$(id -u)" -ne 0 ]; then sudo_cmd="sudo"; fi
    if ! { $sudo_cmd apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing_optional[@]}" >/dev/null; }; then
        echo "Could not install ${missing_optional[*]}: the tests that need it will be skipped." >&2
    fi
fi
