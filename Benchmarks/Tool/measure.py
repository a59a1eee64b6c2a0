"""Runs a command, then prints its wall time, rows a second and peak resident memory."""
import resource
import subprocess
import sys
import time

rows, label, command = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
started = time.monotonic()
completed = subprocess.run(command, stdout=subprocess.DEVNULL)
seconds = time.monotonic() - started
if completed.returncode != 0:
    sys.exit(f"{label}: exit status {completed.returncode}")
peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(f"{label:<36} {seconds:10.2f} {rows / seconds:14,.0f} {peak_kb / 1024:14.1f}")
