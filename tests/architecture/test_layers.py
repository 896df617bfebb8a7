"""The import contracts of ``.importlinter``: the layers (service, workers.runtime,
workers.tables, workers.delivery, workers.core, adjudicator) import only downwards,
the game engines do not import each other, and no package has an import circle.

import-linter runs in a process of its own: its command configures logging with
``dictConfig``, which disables every logger that exists already, in the process
that calls it (the tests that read the service's logs would then read nothing)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_import_contracts_are_kept():
    lint = Path(sys.executable).with_name("lint-imports")
    run = subprocess.run([str(lint), "--config", str(ROOT / ".importlinter"), "--no-cache"],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
