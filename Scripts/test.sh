#!/usr/bin/env bash
# Runs the whole test suite, then (unless arguments narrow the run) the concurrency tests again
# under ThreadSanitizer (Scripts/tsan.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/bootstrap.sh
swift build --build-tests
swift test --skip-build "$@"
if [ $# -eq 0 ]; then Scripts/tsan.sh; fi
