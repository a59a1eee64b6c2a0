#!/usr/bin/env bash
# Damages copies of a real realm file at random places of its data pages (bytes overwritten:
# 8, 64 or a whole page) and runs `burrow dump` (what a program reading the file meets) and
# `burrow verify` (the check of a file not trusted) on each, counting how each run ended.
#
#   Scripts/damage-campaign.sh [COPIES] [SEED]     (default 300 copies, seed 1)
#
# With DAMAGE_ENCRYPTED=1 the file is encrypted (the tools take its key from
# BURROW_ENCRYPTION_KEY), so damage to values meets their authentication check.
#
# Exits 1 when a run ended in a way not explained (a crash without a message naming the
# damage, or a run still going after 60 s); DAMAGE_KEEP=DIR keeps those copies.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/bootstrap.sh --tests >/dev/null
copies="${1:-300}"
seed="${2:-1}"
swift build -c release --product burrow >/dev/null
burrow="$(swift build -c release --show-bin-path)/burrow"
work="$(mktemp -d)"
if [ "${DAMAGE_ENCRYPTED:-0}" = "1" ]; then
    BURROW_ENCRYPTION_KEY="$(printf '%02x' $(seq 1 64))"
    export BURROW_ENCRYPTION_KEY
fi
trap 'rm -rf "$work"' EXIT
# A file of accounts, notes and a clock written by several threads, with lists and indexes.
"$burrow" stress --processes 1 --threads 2 --seconds 3 --kill-every 0 --file "$work/original.realm" >/dev/null
# Compacted, so that nearly every page holds data rather than free space.
"$burrow" compact "$work/original.realm" >/dev/null
python3 - "$burrow" "$work" "$copies" "$seed" <<'PY'
import collections, os, random, subprocess, sys

burrow, work, copies, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
# DAMAGE_KEEP=folder keeps the copies whose outcome is unexplained, to look into.
keep = os.environ.get("DAMAGE_KEEP")
original = open(os.path.join(work, "original.realm"), "rb").read()
page = 4096
pages = len(original) // page
rng = random.Random(seed)

def dump_outcome(run):
    errors = run.stderr
    if run.returncode == 0: return "printed"
    if run.returncode == 1: return "refused (invalidDatabase)"
    if "The file is damaged" in errors: return "stopped naming the damage"
    if "mdb.c" in errors or ": MDB_" in errors or "Object has been deleted or invalidated" in errors \
            or run.returncode in (-11, -7):
        return "stopped in LMDB's pages"
    said = [line for line in errors.splitlines() if "error" in line.lower()] or errors.strip().splitlines() or [""]
    return "UNEXPLAINED (exit %d): %s" % (run.returncode, said[0][:200])

def verify_outcome(run):
    if run.returncode < 0: return "TOOL DIED"
    if "stopped with signal" in run.stdout: return "damaged (the check stopped in LMDB's pages)"
    if "cannot be opened" in run.stdout: return "damaged (refused at open)"
    if run.returncode == 1: return "damaged (problems listed)"
    if run.returncode == 0: return "intact"
    return "UNEXPLAINED exit %d" % run.returncode

dumps, verifies = collections.Counter(), collections.Counter()
both = collections.Counter()
path = os.path.join(work, "damaged.realm")
for index in range(copies):
    data = bytearray(original)
    length = (8, 64, page)[index % 3]
    start = rng.randrange(2, pages) * page + rng.randrange(0, page - length + 1)
    data[start:start + length] = bytes(rng.randrange(256) for _ in range(length))
    for suffix in ("", "-lock"):
        try: os.remove(path + suffix)
        except FileNotFoundError: pass
    open(path, "wb").write(data)
    env = dict(os.environ, SWIFT_BACKTRACE="enable=no")
    try:
        d = dump_outcome(subprocess.run([burrow, "dump", path], capture_output=True, text=True, errors="replace", env=env, timeout=60))
    except subprocess.TimeoutExpired:
        d = "UNEXPLAINED: still running after 60 s"
        if keep: open(os.path.join(keep, "hung-%d.realm" % index), "wb").write(data)
    try:
        v = verify_outcome(subprocess.run([burrow, "verify", path], capture_output=True, text=True, errors="replace", env=env, timeout=60))
    except subprocess.TimeoutExpired:
        v = "UNEXPLAINED: still running after 60 s"
        if keep: open(os.path.join(keep, "hung-%d.realm" % index), "wb").write(data)
    if keep and d.startswith("UNEXPLAINED"): open(os.path.join(keep, "unexplained-%d.realm" % index), "wb").write(data)
    dumps[d] += 1
    verifies[v] += 1
    if d == "printed": both[v] += 1

print(f"{copies} copies of a {len(original)}-byte file ({pages} pages), one damaged place each (seed {seed})")
print("burrow dump:")
for outcome, count in dumps.most_common(): print(f"  {count:5d} {outcome}")
print("burrow verify:")
for outcome, count in verifies.most_common(): print(f"  {count:5d} {outcome}")
print("of the copies dump printed in full, verify said:")
for outcome, count in both.most_common(): print(f"  {count:5d} {outcome}")
bad = sum(c for o, c in list(dumps.items()) + list(verifies.items()) if o.startswith(("UNEXPLAINED", "TOOL DIED")))
sys.exit(1 if bad else 0)
PY
