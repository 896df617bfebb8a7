"""The opt-in compiled build of the Diplomacy engine (mypyc), and how a process selects it.

    python3 manage.py build-engine                      # build it (again only when the source changed)
    ADJUDICATOR_ENGINE=compiled python3 manage.py serve  # the service with it (built first if needed)

The pure-Python package in ``adjudicator/diplomacy/`` stays the engine every
install uses.  The build compiles a copy of that source with mypyc (installed
from PyPI into the project's virtual environment; nothing of ours is
downloaded) and puts the extension modules in ``.build/diplomacy-engine/``,
never beside the ``.py`` files, where Python would prefer them.  That folder
holds a package ``adjudicator`` of its own: its ``diplomacy`` subpackage is
the compiled engine, and its ``__path__`` goes on into the source tree, so
every other engine (``adjudicator.statecraft``, ...) is the source's.

A process uses the compiled engine only when started with that folder on
``PYTHONPATH`` (:func:`environ`).  The folder's ``sitecustomize.py``, which
Python runs at start-up, imports ``adjudicator`` from there at once: later
changes to ``sys.path`` that put the source tree first (``python -m`` run in
it, gunicorn's and pytest's own inserts) then no longer matter.

Standard library only: ``manage.py`` imports it before the virtual
environment exists.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "adjudicator" / "diplomacy"
OUT = ROOT / ".build" / "diplomacy-engine"
STAMP = "BUILT_FROM"
#: mypyc comes with mypy; its version is part of what a build is made from
MYPY = "mypy>=2.4,<3"
#: the modules compiled: what adjudicating a phase runs.  The others stay
#: source in the build: the CLI (``python -m`` needs its source), the package's
#: front, the options and the bots, and the map's data (read once).
COMPILED = ("adjustments.py", "board.py", "codes.py", "engine.py", "movement.py", "orders.py",
            "position.py", "resolver.py", "retreats.py", "variants.py")
SELECT = "ADJUDICATOR_ENGINE"  # "compiled", or "pure" (the default)


def wanted(variable: str | None) -> bool:
    """Whether ``ADJUDICATOR_ENGINE``'s value asks for the compiled engine."""
    if variable in (None, "", "pure"):
        return False
    if variable == "compiled":
        return True
    raise SystemExit(f"{SELECT} must be 'pure' or 'compiled', not {variable!r}")


def source_stamp(python: Path | str = sys.executable) -> str:
    """What a build is made from: the engine's source, the package's
    ``__init__.py`` and where it is, this script, the interpreter and mypy's version."""
    digest = hashlib.sha256(str(ROOT).encode() + b"\0")
    for path in [Path(__file__), ROOT / "adjudicator" / "__init__.py", *sorted(SOURCE.glob("*.py"))]:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    versions = subprocess.run(
        [str(python), "-c", "import sys\ntry:\n import mypy.version as v; m = v.__version__\n"
         "except ImportError:\n m = None\nprint(sys.version, m)"],
        capture_output=True, text=True, check=True).stdout
    digest.update(versions.encode())
    return digest.hexdigest()


def is_built(python: Path | str = sys.executable, out: Path = OUT) -> bool:
    """Whether ``out`` holds a build of the source as it is now."""
    stamp = out / STAMP
    return stamp.exists() and stamp.read_text() == source_stamp(python)


def build(python: Path | str = sys.executable, out: Path = OUT) -> Path:
    """Compile the engine with ``python`` (a virtual environment's) into ``out``,
    unless it already holds a build of the source as it is now."""
    if is_built(python, out):
        return out
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                    MYPY], check=True)
    staging = out.with_name(out.name + ".staging")
    shutil.rmtree(staging, ignore_errors=True)
    package = staging / "adjudicator" / "diplomacy"
    package.mkdir(parents=True)
    (staging / "adjudicator" / "__init__.py").write_text("")
    modules = []
    for path in sorted(SOURCE.glob("*.py")):
        shutil.copy2(path, package / path.name)
        if path.name in COMPILED:
            modules.append(f"adjudicator/diplomacy/{path.name}")
    print(f"compiling the Diplomacy engine with mypyc into {out}", flush=True)
    done = subprocess.run([str(python), "-m", "mypyc", "--disable-error-code",
                           "annotation-unchecked", *modules],
                          cwd=staging, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"mypyc failed:\n{done.stdout}{done.stderr}")
    assemble(staging, out, source_stamp(python))
    shutil.rmtree(staging)
    return out


def assemble(staging: Path, out: Path, stamp: str) -> None:
    """Lay out ``out`` from a staging folder where the engine was compiled:
    every extension module, the modules left as source, and the package
    ``adjudicator`` that goes on into the source tree."""
    new = out.with_name(out.name + ".new")
    shutil.rmtree(new, ignore_errors=True)
    (new / "adjudicator" / "diplomacy").mkdir(parents=True)
    for path in staging.rglob("*.so"):
        relative = path.relative_to(staging)
        if relative.parts[0] == "build":  # mypyc's intermediate copies
            continue
        (new / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, new / relative)
    for path in sorted((staging / "adjudicator" / "diplomacy").glob("*.py")):
        if path.name not in COMPILED:
            shutil.copy2(path, new / "adjudicator" / "diplomacy" / path.name)
    write_selection(new)
    (new / STAMP).write_text(stamp)
    shutil.rmtree(out, ignore_errors=True)
    new.rename(out)


def write_selection(out: Path) -> None:
    """``out/adjudicator/__init__.py``: the source's, whose ``__path__`` goes on
    into the source tree after ``out``'s own subpackages; and
    ``out/sitecustomize.py``, which binds that package at start-up."""
    source_init = ROOT / "adjudicator" / "__init__.py"
    (out / "adjudicator" / "__init__.py").write_text(
        source_init.read_text()
        + "\n# The compiled build (scripts/compiled_engine.py): adjudicator.diplomacy is\n"
        + "# compiled here; every other module of the package is the source tree's.\n"
        + f"__path__.append({str(source_init.parent)!r})\n")
    (out / "sitecustomize.py").write_text(
        '"""Written by scripts/compiled_engine.py: adjudicator is this folder\'s package,\n'
        'whose diplomacy is the compiled engine, whatever is put on sys.path later."""\n'
        "import adjudicator  # noqa: F401\n")


def environ(base: dict[str, str], out: Path = OUT) -> dict[str, str]:
    """``base`` with the variables that make a Python process import the
    compiled engine in ``out`` instead of the source tree's."""
    path = [str(out)] + ([base["PYTHONPATH"]] if base.get("PYTHONPATH") else [])
    return {**base, "PYTHONPATH": os.pathsep.join(path)}
