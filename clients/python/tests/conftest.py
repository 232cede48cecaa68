import sys
from pathlib import Path

# The tests' helpers (fixture_server) sit beside them; the package under test
# is the installed one.
sys.path.insert(0, str(Path(__file__).resolve().parent))
