#!/usr/bin/env bash
# Damages copies of a real realm file at random places of its data pages (bytes overwritten:
# 8, 64 or a whole page) and runs `burrow dump` (what a program reading the file meets),
# `burrow verify` (the check of a file not trusted) and `burrow recover` (every object that can
# still be read, into a new file, which must verify intact) on each, counting how each run
# ended and how many objects recover got back of the original's.
#
#   Scripts/damage-campaign.sh [COPIES] [SEED]     (default 300 copies, seed 1)
#
# With --reads, it runs instead the campaign of reads a program makes
# (Tests/BurrowTests/Storage/DamageCampaignTests.swift, which CI runs with 30 copies): plain and
# encrypted copies of a 5,000-object file, damaged and read back in full in child processes,
# every answer compared with the original's, so that wrong data read without an error counts.
#
#   Scripts/damage-campaign.sh --reads [COPIES] [SEED]     (default 1000 copies, seed 1)
#
# With DAMAGE_ENCRYPTED=1 the file is encrypted (the tools take its key from
# BURROW_ENCRYPTION_KEY), so damage to values meets their authentication check.
#
# Exits 1 when a run ended in a way not explained (a crash without a message naming the
# damage, or a run still going after 60 s); DAMAGE_KEEP=DIR keeps those copies.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/bootstrap.sh --tests >/dev/null
if [ "${1:-}" = "--reads" ]; then
    swift build --build-tests >/dev/null
    BURROW_DAMAGE_COPIES="${2:-1000}" BURROW_DAMAGE_SEED="${3:-1}" \
        swift test --skip-build --filter DamageCampaignTests 2>&1 | grep -v "^◇\|^↳ ///" 
    exit "${PIPESTATUS[0]}"
fi
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
    if run.returncode == 2: return "refused (invalidDatabase)"
    if "The file is damaged" in errors: return "stopped naming the damage"
    if "mdb.c" in errors or ": MDB_" in errors or "Object has been deleted or invalidated" in errors \
            or run.returncode in (-11, -7):
        return "stopped in LMDB's pages"
    said = [line for line in errors.splitlines() if "error" in line.lower()] or errors.strip().splitlines() or [""]
    return "UNEXPLAINED (exit %d): %s" % (run.returncode, said[0][:200])

def verify_outcome(run):
    if run.returncode < 0: return "TOOL DIED"
    if run.returncode == 2: return "refused (not a Burrow file)"
    if "stopped with signal" in run.stdout: return "damaged (the check stopped in LMDB's pages)"
    if "cannot be opened" in run.stdout: return "damaged (refused at open)"
    if run.returncode == 1: return "damaged (problems listed)"
    if run.returncode == 0: return "intact"
    return "UNEXPLAINED exit %d" % run.returncode

def objects_recovered(run):
    """The objects `burrow recover` says it got back, or None when it recovered nothing."""
    first = run.stdout.split("\n", 1)[0].split()
    return int(first[1]) if first[:1] == ["recovered"] else None

env = dict(os.environ, SWIFT_BACKTRACE="enable=no")
whole = subprocess.run([burrow, "recover", os.path.join(work, "original.realm"), os.path.join(work, "whole.realm")],
                       capture_output=True, text=True, env=env)
total = objects_recovered(whole)
if whole.returncode != 0 or not total:
    sys.exit("recover of the intact file failed: " + whole.stdout + whole.stderr)

def recover_outcome(path, target):
    for suffix in ("", "-lock"):
        try: os.remove(target + suffix)
        except FileNotFoundError: pass
    run = subprocess.run([burrow, "recover", path, target, "--quiet"], capture_output=True, text=True, errors="replace", env=env, timeout=600)
    if run.returncode < 0 or run.returncode not in (0, 1): return "TOOL DIED (exit %d): %s" % (run.returncode, run.stderr[-200:]), None
    got = objects_recovered(run)
    if got is None: return "nothing (the schema could not be read)", 0
    check = subprocess.run([burrow, "verify", target], capture_output=True, text=True, env=env)
    if check.returncode != 0: return "UNEXPLAINED: the recovered file does not verify: " + check.stdout[-200:], got
    share = got / total
    if got == total: return "every object", got
    for floor, label in ((0.99, "99% or more"), (0.9, "90% to 99%"), (0.5, "50% to 90%")):
        if share >= floor: return label, got
    return "less than half", got

dumps, verifies, recoveries = collections.Counter(), collections.Counter(), collections.Counter()
both = collections.Counter()
recovered_objects = 0
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
    try:
        r, got = recover_outcome(path, os.path.join(work, "recovered.realm"))
    except subprocess.TimeoutExpired:
        r, got = "UNEXPLAINED: still running after 600 s", None
    recoveries[r] += 1
    recovered_objects += got or 0
    if keep and (d.startswith("UNEXPLAINED") or r.startswith(("UNEXPLAINED", "TOOL DIED"))):
        open(os.path.join(keep, "unexplained-%d.realm" % index), "wb").write(data)
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
print(f"burrow recover, objects got back of the original's {total}:")
for outcome, count in recoveries.most_common(): print(f"  {count:5d} {outcome}")
print(f"  in all, {recovered_objects} of {total * copies} objects ({100 * recovered_objects / (total * copies):.2f}%)")
bad = sum(c for o, c in list(dumps.items()) + list(verifies.items()) + list(recoveries.items()) if o.startswith(("UNEXPLAINED", "TOOL DIED")))
sys.exit(1 if bad else 0)
PY
