"""Runs a command, then prints its wall time, rows a second, and its peak memory: anonymous
(the heap, and the dirty pages of an LMDB write) and file-backed (the mapped database, which
the kernel can drop), sampled from /proc every 10 ms, with the peak resident set
(ru_maxrss) of the process and its children."""
import resource
import subprocess
import sys
import time

rows, label, command = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
started = time.monotonic()
process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
peak = {"RssAnon": 0, "RssFile": 0}
while process.poll() is None:
    try:
        with open(f"/proc/{process.pid}/status") as status:
            for line in status:
                key = line.split(":")[0]
                if key in peak:
                    peak[key] = max(peak[key], int(line.split()[1]))
    except (FileNotFoundError, ProcessLookupError):
        pass
    time.sleep(0.01)
seconds = time.monotonic() - started
if process.returncode != 0:
    sys.exit(f"{label}: exit status {process.returncode}")
peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(f"{label:<36} {seconds:8.2f} {rows / seconds:12,.0f} {peak['RssAnon'] / 1024:10.1f} {peak['RssFile'] / 1024:10.1f} {peak_kb / 1024:10.1f}")
