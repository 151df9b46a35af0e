import sys
from pathlib import Path

# the toy game and the shared helpers live in tests/, the trust helpers here
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
