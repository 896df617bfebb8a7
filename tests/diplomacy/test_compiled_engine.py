"""The compiled engine (scripts/compiled_engine.py): its selection, and its answers against the pure engine's.

* The selection: ``ADJUDICATOR_ENGINE`` read; what ``manage.py serve`` and
  ``manage.py test`` decide (:func:`compiled_engine.select`, run in a process
  of its own as manage.py runs it) without a C compiler, without compiling; a
  stand-in build laid out as the real one and imported as the real one is.
* The answers: when the session runs one engine and the other is at hand (the
  compiled build when the pure engine runs only if it is built already), every
  DATC step of tests/diplomacy/datc and the phases of a few random games, through
  both, compared byte for byte.  The benchmark (benchmarks/diplomacy_bench.py)
  compares them on its whole mix too, and CI runs this folder through each engine.
"""
import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from adjudicator.diplomacy import adjudicate, initial_position, is_compiled
from adjudicator.diplomacy.__main__ import _codec
from benchmarks.positions import datc_phases, game_phases
from scripts import compiled_engine

ROOT = Path(__file__).resolve().parents[2]
WHERE = ("import adjudicator.diplomacy.engine as d, adjudicator.statecraft as s; "
         "print(d.__file__); print(s.__file__)")
SELECT = ("import json, os, sys\nfrom scripts import compiled_engine as c\n"
          "env = c.select(sys.executable, dict(os.environ))\n"
          "print(json.dumps({k: env.get(k) for k in ('PYTHONPATH', c.REASON)}))")


def clean_env(**extra: str) -> dict[str, str]:
    """This process's environment without any engine selection in it."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", compiled_engine.SELECT, compiled_engine.REASON)}
    return {**env, **extra}


def where(env: dict[str, str]) -> list[Path]:
    out = subprocess.run([sys.executable, "-c", WHERE], capture_output=True, text=True,
                         cwd=ROOT, env=env, timeout=60, check=True).stdout
    return [Path(line) for line in out.splitlines()]


def select(**env: str) -> subprocess.CompletedProcess:
    """manage.py's choice of engine, in a process of its own with ``env``."""
    return subprocess.run([sys.executable, "-c", SELECT], check=False, capture_output=True, text=True, cwd=ROOT,
                          env=clean_env(**env), timeout=120)


def test_no_extension_module_lies_in_the_source_tree():
    # Python would import one before the .py beside it
    assert [p for p in (ROOT / "adjudicator").rglob("*") if p.suffix in (".so", ".pyd")] == []


def test_without_a_selection_the_pure_engine_is_imported():
    engine, statecraft = where(clean_env())
    assert engine == ROOT / "adjudicator" / "diplomacy" / "engine.py"
    assert statecraft == ROOT / "adjudicator" / "statecraft" / "__init__.py"


@pytest.mark.parametrize("value, mode", [(None, "auto"), ("", "auto"), ("auto", "auto"), ("pure", "pure"),
                                         ("compiled", "compiled")])
def test_the_variable_selects(value, mode):
    assert compiled_engine.mode(value) == mode


def test_an_unknown_engine_is_refused():
    with pytest.raises(SystemExit, match="'auto', 'pure' or 'compiled'"):
        compiled_engine.mode("fast")


def test_pure_builds_nothing(tmp_path):
    done = select(ADJUDICATOR_ENGINE="pure", XDG_CACHE_HOME=str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"PYTHONPATH": None, compiled_engine.REASON: "ADJUDICATOR_ENGINE=pure"}
    assert list(tmp_path.iterdir()) == [] and done.stderr == ""


@pytest.mark.parametrize("missing", [{"CC": "/nowhere/cc"}, {"CC": "", "PATH": "/nowhere"}],
                         ids=["CC names no program", "no compiler on PATH"])
def test_auto_without_a_compiler_falls_back_to_the_pure_engine(tmp_path, missing):
    # an empty cache: no build to take, so the compiler is needed
    done = select(XDG_CACHE_HOME=str(tmp_path), **missing)
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["PYTHONPATH"] is None
    assert answer[compiled_engine.REASON].startswith("not compiled: no C compiler (")
    assert "not found" in done.stderr and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1  # one line says why


def test_compiled_without_a_compiler_stops_and_says_why(tmp_path):
    done = select(ADJUDICATOR_ENGINE="compiled", XDG_CACHE_HOME=str(tmp_path), CC="/nowhere/cc")
    assert done.returncode == 1 and done.stdout == ""
    assert "cannot be built: no C compiler (/nowhere/cc not found)" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_cached_build_needs_no_compiler():
    if not compiled_engine.is_built(sys.executable):
        pytest.skip("the compiled engine is not built from this source here")
    done = select(CC="/nowhere/cc")
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert json.loads(done.stdout) == {"PYTHONPATH": str(compiled_engine.OUT), compiled_engine.REASON: None}


def test_the_selection_imports_the_build_first_and_the_rest_from_the_source(tmp_path):
    # a stand-in for a build: the engine's source in a cache folder laid out as the build's
    entry, out = tmp_path / "cache" / "stamp", tmp_path / "checkout-build"
    shutil.copytree(ROOT / "adjudicator" / "diplomacy", entry / "adjudicator" / "diplomacy",
                    ignore=shutil.ignore_patterns("__pycache__"))
    out.mkdir()
    compiled_engine.write_selection(out, entry)
    env = compiled_engine.environ(clean_env(), out)
    engine, statecraft = where(env)  # run in the source tree, which -c puts first on sys.path
    assert engine == entry / "adjudicator" / "diplomacy" / "engine.py"
    assert statecraft == ROOT / "adjudicator" / "statecraft" / "__init__.py"
    request = dict(initial_position(), orders={"FRANCE": ["A PAR - BUR"]})
    done = subprocess.run([sys.executable, "-m", "adjudicator.diplomacy"], cwd=ROOT, env=env,
                          input=json.dumps(request) + "\n", capture_output=True, text=True,
                          timeout=60, check=True)
    assert json.loads(done.stdout) == adjudicate(request)
    # the source tree first on PYTHONPATH too (as the tests' service stack starts its processes)
    behind = {**env, "PYTHONPATH": os.pathsep.join([str(ROOT), str(out)])}
    assert where(behind) == [engine, statecraft]


def test_a_build_holds_the_bytecode_of_the_modules_left_as_source(tmp_path):
    # where PYTHONDONTWRITEBYTECODE is set (the Dockerfile), a process would compile them at every start
    staging, entry = tmp_path / "staging", tmp_path / "cache" / "stamp"
    shutil.copytree(ROOT / "adjudicator" / "diplomacy", staging / "adjudicator" / "diplomacy",
                    ignore=shutil.ignore_patterns("__pycache__"))
    entry.parent.mkdir()
    compiled_engine.assemble(staging, entry, "stamp", sys.executable)
    left = sorted((entry / "adjudicator" / "diplomacy").glob("*.py"))
    assert {p.name for p in left} >= {"__init__.py", "__main__.py", "options.py"}
    assert not {p.name for p in left} & set(compiled_engine.COMPILED)
    for path in left:
        assert Path(importlib.util.cache_from_source(str(path))).is_file(), path.name


def test_a_build_of_other_source_is_not_taken_for_this_one(tmp_path):
    entry, other, out = tmp_path / "this", tmp_path / "other", tmp_path / "out"
    for folder in (entry, other, out):
        folder.mkdir()
    (entry / compiled_engine.STAMP).write_text("this")
    assert not compiled_engine.is_selected(out, entry)
    compiled_engine.write_selection(out, other)
    assert not compiled_engine.is_selected(out, entry)
    compiled_engine.write_selection(out, entry)
    assert compiled_engine.is_selected(out, entry)
    shutil.rmtree(entry)  # the cache emptied
    assert not compiled_engine.is_selected(out, entry)


def corpus() -> list[bytes]:
    """Every DATC step and the phases of three random games, as JSON lines."""
    requests = [{k: v for k, v in r.items() if k != "mila_orders"} for r in datc_phases(every_case=True)]
    requests += [r for seed in (1, 2, 3) for game in game_phases(150, seed=seed) for r in game]
    return [json.dumps(r).encode() for r in requests]


def test_the_compiled_engine_answers_as_the_pure_one_byte_for_byte():
    if is_compiled():
        other = "pure"
        env = clean_env()  # PYTHONPATH without the build: the source tree's engine
    elif compiled_engine.is_built(sys.executable):
        other = "compiled"
        env = compiled_engine.environ(clean_env())
    else:
        pytest.skip("the pure engine runs and the compiled one is not built here: nothing to compare")
    lines = corpus()
    loads, dumps, _bad_json = _codec()
    here = [dumps(adjudicate(loads(line))) for line in lines]
    done = subprocess.run([sys.executable, "-m", "adjudicator.diplomacy"], cwd=ROOT, env=env,
                          input=b"\n".join(lines) + b"\n", capture_output=True, timeout=120, check=True)
    there = done.stdout.splitlines()
    assert len(there) == len(lines)
    differ = [i for i, (a, b) in enumerate(zip(here, there)) if a != b]
    assert not differ, (f"{len(differ)} of {len(lines)} answers differ (the {other} engine in a subprocess), "
                        f"first for {lines[differ[0]][:300]!r}:\n  here:  {here[differ[0]][:500]!r}\n"
                        f"  there: {there[differ[0]][:500]!r}")
    # and the subprocess ran the other engine
    assert where(env)[0].suffix == (".py" if other == "pure" else ".so")


@pytest.mark.background(seconds=12, early=True)  # mypyc runs for seconds before the compiler fails
def test_auto_falls_back_when_the_build_fails(tmp_path):
    # a compiler that fails: mypyc runs, then every C file fails to compile
    done = select(XDG_CACHE_HOME=str(tmp_path), CC="false")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["PYTHONPATH"] is None
    assert answer[compiled_engine.REASON].startswith("not compiled: mypyc failed (")
    assert "Traceback" not in done.stderr
    # nothing half-built is left for a later run to take
    assert [p.name for p in (tmp_path / "adjudication-service" / "diplomacy-engine").iterdir()] == ["lock"]


def test_the_launcher_says_which_engine_runs_and_why():
    def line(env: dict[str, str]) -> str:
        return subprocess.run([sys.executable, "-c", "from service.launch import engine_line; print(engine_line())"],
                              capture_output=True, text=True, cwd=ROOT, env=env, timeout=60, check=True).stdout.strip()

    assert line(clean_env(ADJUDICATOR_ENGINE_REASON="ADJUDICATOR_ENGINE=pure")) == \
        "Diplomacy engine: pure Python (ADJUDICATOR_ENGINE=pure)"
    assert line(clean_env()).startswith("Diplomacy engine: pure Python (the compiled build is not selected")
    if compiled_engine.is_built(sys.executable):
        assert line(compiled_engine.environ(clean_env())) == "Diplomacy engine: compiled (mypyc)"
