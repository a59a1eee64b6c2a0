#!/usr/bin/env bash
# Builds the documentation of the Burrow module (its DocC catalog, Sources/Burrow/Burrow.docc,
# and every public symbol's comment) into a static site, with the toolchain's own docc.
#
#   Scripts/docs.sh                      # builds the module, then the site in .build/docs
#   Scripts/docs.sh --output DIR         # the site in DIR
#   Scripts/docs.sh --products DIR       # use a module already built in DIR (no build)
#
# The site reads its pages with JavaScript, so serve it rather than opening the file:
#   python3 -m http.server --directory .build/docs 8000
#   then open http://localhost:8000/documentation/burrow
set -euo pipefail
cd "$(dirname "$0")/.."

output=.build/docs
products=""
while [ $# -gt 0 ]; do
    case "$1" in
        --output) output="$2"; shift 2 ;;
        --products) products="$2"; shift 2 ;;
        *) echo "usage: Scripts/docs.sh [--output DIR] [--products DIR]" >&2; exit 2 ;;
    esac
done

if [ -z "$products" ]; then
    Scripts/bootstrap.sh
    swift build --target Burrow
    products="$(swift build --show-bin-path)"
fi

graphs="$(mktemp -d)"
trap 'rm -rf "$graphs"' EXIT
# The symbol graph of the public API, read from the built module; the system libraries' module
# maps let the compiler load the modules Burrow imports.
swift-symbolgraph-extract -module-name Burrow -target "$(uname -m)-unknown-linux-gnu" \
    -I "$products/Modules" -I Sources/CLMDB -I Sources/CSodium -I Sources/CLibPQ -I Sources/CRC32C/include \
    -Xcc "-I$(pkg-config --variable=includedir libpq)" \
    -minimum-access-level public -output-dir "$graphs"

rm -rf "$output"
mkdir -p "$(dirname "$output")"
docc convert Sources/Burrow/Burrow.docc \
    --additional-symbol-graph-dir "$graphs" \
    --fallback-display-name Burrow --fallback-bundle-identifier org.burrow.Burrow \
    --transform-for-static-hosting --emit-digest --output-path "$output"
echo "documentation built in $output: serve it (python3 -m http.server --directory $output) and open /documentation/burrow"
