"""The opt-in compiled engine's selection (scripts/compiled_engine.py), without compiling.

Whether the compiled build answers as the pure engine does is checked on the
whole benchmark mix by benchmarks/diplomacy_bench.py (byte for byte, every
round), and by this folder's tests run through it:
``ADJUDICATOR_ENGINE=compiled python3 manage.py test tests/diplomacy``.
"""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from adjudicator.diplomacy import adjudicate, initial_position
from scripts import compiled_engine

ROOT = Path(__file__).resolve().parents[2]
WHERE = ("import adjudicator.diplomacy.engine as d, adjudicator.statecraft as s; "
         "print(d.__file__); print(s.__file__)")


def clean_env() -> dict[str, str]:
    """This process's environment without any engine selection in it."""
    return {k: v for k, v in os.environ.items()
            if k not in ("PYTHONPATH", compiled_engine.SELECT)}


def where(env: dict[str, str]) -> list[Path]:
    out = subprocess.run([sys.executable, "-c", WHERE], capture_output=True, text=True,
                         cwd=ROOT, env=env, timeout=60, check=True).stdout
    return [Path(line) for line in out.splitlines()]


def test_no_extension_module_lies_in_the_source_tree():
    # Python would import one before the .py beside it
    assert [p for p in (ROOT / "adjudicator").rglob("*") if p.suffix in (".so", ".pyd")] == []


def test_without_the_opt_in_the_pure_engine_is_imported():
    engine, statecraft = where(clean_env())
    assert engine == ROOT / "adjudicator" / "diplomacy" / "engine.py"
    assert statecraft == ROOT / "adjudicator" / "statecraft" / "__init__.py"


@pytest.mark.parametrize("value, compiled", [(None, False), ("", False), ("pure", False),
                                             ("compiled", True)])
def test_the_variable_selects(value, compiled):
    assert compiled_engine.wanted(value) is compiled


def test_an_unknown_engine_is_refused():
    with pytest.raises(SystemExit, match="'pure' or 'compiled'"):
        compiled_engine.wanted("fast")


def test_the_opt_in_imports_the_build_folder_first_and_the_rest_from_the_source(tmp_path):
    # a stand-in for a build: the engine's source in a folder laid out as the build's
    out = tmp_path / "engine"
    shutil.copytree(ROOT / "adjudicator" / "diplomacy", out / "adjudicator" / "diplomacy",
                    ignore=shutil.ignore_patterns("__pycache__"))
    compiled_engine.write_selection(out)
    env = compiled_engine.environ(clean_env(), out)
    engine, statecraft = where(env)  # run in the source tree, which -c puts first on sys.path
    assert engine == out / "adjudicator" / "diplomacy" / "engine.py"
    assert statecraft == ROOT / "adjudicator" / "statecraft" / "__init__.py"
    request = dict(initial_position(), orders={"FRANCE": ["A PAR - BUR"]})
    done = subprocess.run([sys.executable, "-m", "adjudicator.diplomacy"], cwd=ROOT, env=env,
                          input=json.dumps(request) + "\n", capture_output=True, text=True,
                          timeout=60, check=True)
    assert json.loads(done.stdout) == adjudicate(request)


def test_a_build_of_other_source_is_not_taken_for_this_one(tmp_path):
    (tmp_path / compiled_engine.STAMP).write_text("a build of other source")
    assert not compiled_engine.is_built(sys.executable, tmp_path)
    (tmp_path / compiled_engine.STAMP).write_text(compiled_engine.source_stamp(sys.executable))
    assert compiled_engine.is_built(sys.executable, tmp_path)
