"""docs/diplomacy.md's command-line example prints what the page shows, byte for byte."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from .blocks import blocks
from .sessions import commands

ROOT = Path(__file__).resolve().parents[2]


def test_the_batch_adjudicator_example_prints_what_the_docs_show():
    [cmd] = [c for b in blocks("diplomacy.md") for c in commands(b.text) if "python -m adjudicator.diplomacy" in c.text]
    text = cmd.text.replace("python -m", f"{sys.executable} -m")
    done = subprocess.run(["bash", "-c", text], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == cmd.shown
