#!/usr/bin/env bash
# Runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/bootstrap.sh
swift build --build-tests
swift test --skip-build "$@"
