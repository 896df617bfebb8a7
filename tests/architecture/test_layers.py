"""The import contracts of ``.importlinter``: the layers (service, workers.runtime,
workers.tables, workers.delivery, workers.core, adjudicator) import only downwards,
the game engines do not import each other, and no package has an import circle."""
from __future__ import annotations

import os
from pathlib import Path

from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parents[2]


def test_the_import_contracts_are_kept():
    here = Path.cwd()
    os.chdir(ROOT)
    try:
        assert lint_imports(config_filename=str(ROOT / ".importlinter"), no_cache=True) == 0
    finally:
        os.chdir(here)
