#!/usr/bin/env bash
# Copy-compacts a realm file: in place (an atomic rename over the original, keeping its
# mode) or into DST. Refuses a file another process has open; never leaves a half-written
# file. It runs `burrow compact`, built in release mode.
set -euo pipefail
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: Scripts/compact.sh SRC [DST]" >&2
    exit 2
fi
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/Scripts/bootstrap.sh"
swift build -c release --package-path "$root" --product burrow >/dev/null
exec "$root/.build/release/burrow" compact "$@"
