#!/usr/bin/env python3
"""Newcomer entry point: sets itself up, then serves or tests.

    python3 manage.py serve   # API, a worker and the scheduler (embedded Redis unless REDIS_URL)
    python3 manage.py serve --workers 2   # extra arguments go to the launcher (python -m service.launch -h)
    python3 manage.py test    # the whole test suite (extra arguments go to pytest)
    python3 manage.py openapi   # the API's contract, generated from the routes (openapi.yaml is a snapshot of it)
    python3 manage.py build-engine   # compile the Diplomacy engine with mypyc now (serve and test do it on first use)
    ADJUDICATOR_ENGINE=pure python3 manage.py test tests/diplomacy   # the pure-Python engine, nothing compiled
    ADJUDICATOR_ENGINE=compiled python3 manage.py serve   # the compiled engine, or stop if it cannot be built

Standard library only: it creates ``.venv`` beside this file and installs the
project into it with uv (pip where uv cannot; again only when pyproject.toml or
the way it is installed has changed since), then runs the command with the
virtual environment's Python.

``serve`` and ``test`` run the Diplomacy engine compiled with mypyc when a C
compiler and Python's headers are there: built on first use (about half a
minute), cached by its source in ``~/.cache/adjudication-service/`` for every
clone on the machine, and rebuilt only when that source changes.  Without a
compiler, or when the build fails, they say why and run the pure-Python engine
(``ADJUDICATOR_ENGINE``: ``auto``, the default, ``pure`` or ``compiled``;
scripts/compiled_engine.py).
"""
import compileall
import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

from scripts import compiled_engine  # the Diplomacy engine compiled with mypyc, and its selection

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
PYTHON = VENV / "bin" / "python"
STAMP = VENV / ".installed-from"

COMMANDS = {
    "serve": ["-m", "service.launch"],
    "test": ["-m", "pytest"],
    "openapi": ["-m", "service.openapi"],
}


def ensure_environment() -> None:
    if not PYTHON.exists():
        print(f"creating virtual environment in {VENV}", file=sys.stderr, flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    # Editable as a path on sys.path (setuptools' "compat" mode), not as an import hook: the hook
    # imports pathlib, urllib and more in every process at start, 12 ms of CPU where `python -c pass`
    # takes 9 (4 ms of a one-request ``python -m adjudicator.diplomacy``'s 37).
    project = ["--config-settings", "editable_mode=compat", "--editable", f"{ROOT}[test,engine]"]
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes() + repr(project).encode()).hexdigest()
    if STAMP.exists() and STAMP.read_text() == wanted:
        return
    print("installing the project and its dependencies", file=sys.stderr, flush=True)
    pip = [str(PYTHON), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    # On stderr, all of it: the standard output is the command's alone (``manage.py openapi > openapi.yaml``).
    # uv (from PyPI, into the venv) installs the project in about 15 s where pip takes 40; pip does it
    # where uv cannot be had or cannot install (an index only pip's configuration names, say).
    try:
        subprocess.run([*pip, "uv>=0.5"], check=True, stdout=sys.stderr)
        subprocess.run([str(PYTHON), "-m", "uv", "pip", "install", "--quiet", "--compile-bytecode",
                        "--python", str(PYTHON), *project], check=True, stdout=sys.stderr)
    except subprocess.CalledProcessError:
        print("uv could not install the project: pip installs it", file=sys.stderr, flush=True)
        subprocess.run([*pip, "--upgrade", "pip"], check=True, stdout=sys.stderr)
        subprocess.run([*pip, *project], check=True, stdout=sys.stderr)
    STAMP.write_text(wanted)


def compile_source() -> None:
    """The project's own modules compiled to bytecode ahead, as an installed package's are (uv
    compiles the dependencies): every process the service or the tests start then reads them
    compiled, also where ``PYTHONDONTWRITEBYTECODE`` is set and Python would compile each module
    again in each process (collecting the tests took 10 s of CPU that way, 4 s compiled).  Only
    what changed since is compiled again."""
    for package in ("adjudicator", "service", "workers", "scripts", "tests"):
        compileall.compile_dir(ROOT / package, quiet=1, workers=0)


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in (*COMMANDS, "build-engine"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    ensure_environment()
    os.chdir(ROOT)
    env = dict(os.environ)
    if argv[0] == "build-engine":
        try:
            compiled_engine.build(PYTHON)
        except compiled_engine.BuildError as e:
            raise SystemExit(f"the compiled Diplomacy engine cannot be built: {e}")
        return 0
    if argv[0] in ("serve", "test"):
        compile_source()
        env = compiled_engine.select(PYTHON, env)
    command = [str(PYTHON), *COMMANDS[argv[0]], *argv[1:]]
    try:
        return subprocess.call(command, env=env)
    except KeyboardInterrupt:  # the child got the same Ctrl-C and stops itself
        return 130


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
