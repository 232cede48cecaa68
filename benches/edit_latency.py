"""Edit saved to edit served: the one measurement behind the edit-to-served
rows of build-bench.sh (--scale) and serve-bench.sh.

Each round writes a unique marker into the data through the caller's `edit`,
then polls `url` every 5 ms until the answer holds the marker (the watcher's
debounce and the rebuild included). Latencies come back sorted, in ms.
"""
import sys
import time
import urllib.request


def edit_to_served(url, edit, edits, pause=0.5):
    latencies = []
    for i in range(edits):
        marker = f"bench-edit-{i}-{time.time_ns()}"
        start = time.monotonic()
        edit(marker)
        while True:
            with urllib.request.urlopen(url, timeout=30) as response:
                if marker in response.read().decode():
                    break
            if time.monotonic() - start > 60:
                sys.exit(f"edit {i} was not served within 60 s")
            time.sleep(0.005)
        latencies.append((time.monotonic() - start) * 1000)
        time.sleep(pause)
    return sorted(latencies)
