"""The environment manage.py makes: what every process of it pays at start."""
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(Path(sys.prefix) != ROOT / ".venv", reason="the environment manage.py makes")
def test_a_process_of_the_project_environment_starts_without_an_import_hook():
    """manage.py installs the project editable as a path on sys.path: the
    import hook of setuptools' default mode imports pathlib and urllib in every
    process at start, more than the interpreter's own start-up costs."""
    imported = subprocess.run(
        [sys.executable, "-c", "import sys; print(sorted({'pathlib', 'urllib.parse'} & set(sys.modules)))"],
        capture_output=True, text=True, timeout=60, check=True).stdout.strip()
    assert imported == "[]"
