#!/usr/bin/env bash
# Runs `burrow stress`, built in release mode: threads in processes against one file, with
# random SIGKILLs, checking every invariant. Takes the tool's options, for example:
#   Scripts/stress.sh --threads 8 --processes 2 --seconds 60
# Exits with the tool's status: 0 when every invariant held.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/Scripts/bootstrap.sh"
swift build -c release --package-path "$root" --product burrow >/dev/null
exec "$root/.build/release/burrow" stress "$@"
