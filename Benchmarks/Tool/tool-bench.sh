#!/usr/bin/env bash
# burrow export and import against sqlite3's CSV export and .import, on the same N rows, side
# by side: seconds, rows a second, and each process's peak resident memory.
#
# Usage: Benchmarks/Tool/tool-bench.sh BURROW N FOLDER
set -euo pipefail
burrow="$1"
rows="$2"
folder="$3"
here="$(cd "$(dirname "$0")" && pwd)"

# The rows: an integer key, text (some of it needing CSV quotes), a real, an integer, a date.
python3 "$here/rows.py" "$rows" > "$folder/rows.csv"

# A Burrow file with the class, made from a whole-file export's schema line.
cat > "$folder/schema.jsonl" <<'JSON'
{"burrow-export":1,"schemaVersion":0,"classes":[{"name":"Row","embedded":false,"primaryKey":"id","properties":[{"name":"id","type":"int","optional":false,"collection":null,"objectClass":null,"originProperty":null,"indexed":false,"primaryKey":true},{"name":"name","type":"string","optional":false,"collection":null,"objectClass":null,"originProperty":null,"indexed":false,"primaryKey":false},{"name":"email","type":"string","optional":true,"collection":null,"objectClass":null,"originProperty":null,"indexed":false,"primaryKey":false},{"name":"score","type":"double","optional":false,"collection":null,"objectClass":null,"originProperty":null,"indexed":false,"primaryKey":false},{"name":"age","type":"int","optional":false,"collection":null,"objectClass":null,"originProperty":null,"indexed":false,"primaryKey":false},{"name":"born","type":"date","optional":false,"collection":null,"objectClass":null,"originProperty":null,"indexed":false,"primaryKey":false}]}]}
JSON
"$burrow" import "$folder/bench.realm" "$folder/schema.jsonl" >/dev/null
sqlite3 "$folder/bench.db" "CREATE TABLE Row(id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT, score REAL NOT NULL, age INTEGER NOT NULL, born TEXT NOT NULL)"

measure() { python3 "$here/measure.py" "$rows" "$@"; }
echo "burrow export and import of $rows rows against sqlite3's, in one run"
printf '%-36s %8s %12s %10s %10s %10s\n' "" "seconds" "rows/s" "anon MB" "file MB" "maxrss MB"
measure "burrow import Row rows.csv" "$burrow" import "$folder/bench.realm" Row "$folder/rows.csv" --quiet | tee "$folder/import.txt"
measure "sqlite3 .import rows.csv" sqlite3 "$folder/bench.db" ".import --csv --skip 1 $folder/rows.csv Row" | tee -a "$folder/import.txt"
measure "burrow export --class Row --format csv" "$burrow" export "$folder/bench.realm" --class Row --format csv --output "$folder/burrow.csv" --quiet | tee "$folder/export.txt"
measure "sqlite3 -csv select *" sqlite3 -csv -header "$folder/bench.db" ".output $folder/sqlite.csv" "SELECT * FROM Row" | tee -a "$folder/export.txt"
measure "burrow export (whole file, jsonl)" "$burrow" export "$folder/bench.realm" --output "$folder/all.jsonl" --quiet
measure "burrow import (whole file, jsonl)" "$burrow" import "$folder/copy.realm" "$folder/all.jsonl" --quiet
if cmp -s "$folder/rows.csv" "$folder/burrow.csv"; then
    echo "burrow's CSV export is byte-identical to the CSV imported"
else
    echo "burrow's CSV export differs from the CSV imported" >&2
    exit 1
fi
# The bar: each at least half of sqlite3's speed (its time over Burrow's).
speed() { awk -v what="$1" '{ seconds[NR] = $(NF - 4) } END { printf "burrow %s at %.2f of sqlite3'"'"'s speed (the bar is 0.50)\n", what, seconds[2] / seconds[1] }' "$2"; }
speed "CSV import" "$folder/import.txt"
speed "CSV export" "$folder/export.txt"
echo "file sizes: bench.realm $(stat -c %s "$folder/bench.realm") bytes, bench.db $(stat -c %s "$folder/bench.db") bytes"
