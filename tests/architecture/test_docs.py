"""The docs that are generated or bounded stay so: docs/redis-keys.md's field tables are what
scripts/redis_fields.py prints from workers/core/records.py, and the README stays short."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BEGIN, END = "<!-- begin redis-fields", "<!-- end redis-fields -->"


def test_the_redis_field_tables_are_the_records():
    printed = subprocess.run([sys.executable, str(ROOT / "scripts" / "redis_fields.py")], cwd=ROOT,
                             capture_output=True, text=True, timeout=60, check=True).stdout
    doc = (ROOT / "docs" / "redis-keys.md").read_text()
    start, end = doc.index(BEGIN), doc.index(END) + len(END)
    assert doc[start:end] + "\n" == printed, (
        "docs/redis-keys.md's generated section differs from workers/core/records.py: run "
        "`.venv/bin/python scripts/redis_fields.py --write`")


def test_the_readme_is_short_and_says_how_things_are():
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) <= 100
    assert not re.search(r"\b[Ii]ssue \d+|#\d+\b", readme), "issue numbers belong in the history, not the README"
    assert not re.search(r"\b[0-9a-f]{7,40}\b", readme), "baseline commits belong in docs/benchmarks.md"
    assert "python3 manage.py serve" in readme and "python3 manage.py test" in readme
