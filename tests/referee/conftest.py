import sys
from pathlib import Path

# the toy game and the shared helpers live in tests/
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
