#!/usr/bin/env bash
# Runs the demo: models, a write, a live query and a background thread.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/bootstrap.sh
swift run burrow-demo "$@"
