#!/usr/bin/env bash
# Builds the benchmarks in release mode and runs them: Burrow, raw LMDB and SQLite on the same
# workload in one run, printed side by side.
#
# Usage: Scripts/bench.sh [--rounds R] [N] [directory]
#   N          objects in the workload (default 1000000)
#   directory  where the files go (default: a temporary folder, removed afterwards)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -f Scripts/bootstrap.sh ]; then
    bash Scripts/bootstrap.sh
fi

# SwiftPM keeps the build plan of a path dependency when only its files change: drop the plan so
# that files added to the library are compiled.
rm -f Benchmarks/.build/release.yaml
swift build -c release --package-path Benchmarks
bin_path="$(swift build -c release --package-path Benchmarks --show-bin-path)"
"$bin_path/BurrowBench" "${@:-1000000}"
