#!/usr/bin/env bash
# Runs the whole test suite, then (unless arguments narrow the run) the whole suite again with
# every test file encrypted (tests marked .plainFilesOnly skip themselves there, saying why),
# and the concurrency tests under ThreadSanitizer (Scripts/tsan.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/bootstrap.sh --tests
swift build --build-tests
swift test --skip-build "$@"
if [ $# -eq 0 ]; then
    # Every suite again on encrypted files: every file the tests make gets a key.
    BURROW_TEST_ENCRYPTION=1 swift test --skip-build
    Scripts/tsan.sh
fi
