#!/usr/bin/env bash
# Runs the whole test suite, then (unless arguments narrow the run) the behaviour suites of
# Tests/encrypted-suites.txt again with every test file encrypted, and the concurrency tests
# under ThreadSanitizer (Scripts/tsan.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/bootstrap.sh
swift build --build-tests
swift test --skip-build "$@"
if [ $# -eq 0 ]; then
    # The behaviour suites again on encrypted files: every file the tests make gets a key.
    BURROW_TEST_ENCRYPTION=1 swift test --skip-build --filter "$(cat Tests/encrypted-suites.txt | paste -sd'|')"
    Scripts/tsan.sh
fi
