"""Run every benchmark in this folder, one after another (``make bench``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

if __name__ == "__main__":
    for script in sorted(HERE.glob("*.py")):
        if script.name != Path(__file__).name:
            print(f"== {script.name}", flush=True)
            subprocess.run([sys.executable, str(script)], check=True)
