"""The `serve` a benchmark started, stopped one way: the Python helper
shared by save-bench.sh and build-bench.sh (benches/lib.sh is the shell's).
"""
import shutil
import signal
import subprocess


def stop(serve, folder):
    """Stops `serve` (SIGTERM, then a kill if it has not ended within 30 s)
    and removes `folder`, the temporary root it served."""
    serve.send_signal(signal.SIGTERM)
    try:
        serve.wait(timeout=30)
    except subprocess.TimeoutExpired:
        serve.kill()
        serve.wait()
    shutil.rmtree(folder, ignore_errors=True)
