"""The compiled build of the Diplomacy engine (mypyc): built on first use, cached, and how a process selects it.

    python3 manage.py serve / test            # the compiled engine when it can be built, else the pure one
    ADJUDICATOR_ENGINE=pure python3 manage.py serve      # the pure engine, nothing built
    ADJUDICATOR_ENGINE=compiled python3 manage.py serve  # the compiled engine, or stop with the reason
    python3 manage.py build-engine                       # build it now (again only when the source changed)

The pure-Python package in ``adjudicator/diplomacy/`` is the engine's source
and stays the engine of every install that does not build (no C compiler, no
Python headers, ``ADJUDICATOR_ENGINE=pure``).  :func:`select` decides, for
``manage.py serve`` and ``manage.py test``: unset (or ``auto``), it uses a build
of the source as it is now, builds one when a C compiler and Python's headers
are there, and otherwise, or when the build fails, says why on stderr and goes
on with the pure engine.

The build compiles a copy of the source with mypyc (mypy's compiler, the
project's ``engine`` extra) into the user's cache,
``$XDG_CACHE_HOME/adjudication-service/diplomacy-engine/<stamp>/`` (default
``~/.cache``), never beside the ``.py`` files, where Python would prefer
them.  The stamp is a digest of what the build is made from (the engine's
source, this script, the interpreter, mypy's version), not of where the
checkout is, so another clone of the same source on the same machine finds
the build made for the first one.  A lock file makes two first uses at once
build once; each build is laid out in a folder of its own and renamed into
place when complete.

What selects the build is per checkout, in ``.build/diplomacy-engine/``: a
package ``adjudicator`` whose ``__path__`` is the cache's ``adjudicator``
(its ``diplomacy`` is the compiled engine) and then this checkout's source (every
other engine, ``adjudicator.statecraft``, ...), and a ``sitecustomize.py``.  A
process uses the compiled engine only when started with that folder on
``PYTHONPATH`` (:func:`environ`), wherever there.  Python runs its
``sitecustomize.py`` at start-up, which puts that folder first on ``sys.path``
and the cache folder last (mypyc's shared library is a top-level module) and
imports ``adjudicator`` at once: the source tree put first on ``sys.path``,
before (a ``PYTHONPATH`` that names it first) or later (``python -m`` run in
it, gunicorn's and pytest's own inserts), then no longer matters.

A build's output is in ``.build/diplomacy-engine-build.log``; builds no
checkout has used for 30 days leave the cache when a new one is made.

Standard library only: ``manage.py`` imports it before the virtual
environment exists.
"""
from __future__ import annotations

import fcntl
import hashlib
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "adjudicator" / "diplomacy"
OUT = ROOT / ".build" / "diplomacy-engine"  # this checkout's selection of a build
LOG = ROOT / ".build" / "diplomacy-engine-build.log"  # the last build's output
STAMP = "BUILT_FROM"
SELECT = "ADJUDICATOR_ENGINE"  # "auto" (the default), "compiled" or "pure"
#: why a process started by manage.py runs the pure engine (service/launch.py logs it)
REASON = "ADJUDICATOR_ENGINE_REASON"
#: the modules compiled: what adjudicating a phase runs.  The others stay
#: source in the build: the CLI (``python -m`` needs its source), the package's
#: front, the options and the bots, and the map's data (read once).
COMPILED = ("adjustments.py", "board.py", "codes.py", "engine.py", "movement.py", "orders.py",
            "position.py", "resolver.py", "retreats.py", "variants.py")
#: How mypyc builds, chosen by timing the build and the benchmark
#: (docs/diplomacy.md): a C file per module, compiled on every core at once,
#: -O2 and no debug information.
SETUP = """\
import os
import sys
from concurrent.futures import ThreadPoolExecutor
from setuptools import setup
from setuptools._distutils.ccompiler import CCompiler
from mypyc.build import mypycify

one_by_one = CCompiler.compile


def compile_in_parallel(self, sources, *args, **kwargs):
    # setuptools compiles an extension's C files one after the other: here on every core, the
    # largest first (the last to finish sets the time), the objects in the sources' order
    largest_first = sorted(sources, key=lambda source: -os.path.getsize(source))
    with ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        done = dict(zip(largest_first, pool.map(lambda source: one_by_one(self, [source], *args, **kwargs),
                                                largest_first)))
    return [obj for source in sources for obj in done[source]]


CCompiler.compile = compile_in_parallel
modules = sys.argv[1:]
sys.argv[1:] = []
setup(name="diplomacy-engine", script_args=["build_ext", "--inplace", "--parallel", "2"],
      ext_modules=mypycify(["--disable-error-code", "annotation-unchecked", *modules],
                           opt_level="{opt_level}", debug_level="0", multi_file=True))
"""
OPT_LEVEL = "2"


class BuildError(Exception):
    """The compiled engine could not be built here; the message says why."""


def mode(variable: str | None) -> str:
    """``ADJUDICATOR_ENGINE``'s value read: "auto", "compiled" or "pure"."""
    if variable in (None, "", "auto"):
        return "auto"
    if variable in ("compiled", "pure"):
        return variable
    raise SystemExit(f"{SELECT} must be 'auto', 'pure' or 'compiled', not {variable!r}")


def cache_root(env: dict[str, str] | os._Environ = os.environ) -> Path:
    base = env.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "adjudication-service" / "diplomacy-engine"


def missing_toolchain(env: dict[str, str] | os._Environ = os.environ) -> str | None:
    """Why no C extension can be built here (None: it can): the compiler
    setuptools would run (``$CC``, else the one Python was built with) and
    Python's headers."""
    compiler = shlex.split(env.get("CC") or sysconfig.get_config_var("CC") or "cc")[0]
    if shutil.which(compiler, path=env.get("PATH")) is None:
        return f"no C compiler ({compiler} not found)"
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not headers.exists():
        return f"no Python headers ({headers} not found; python3-dev installs them)"
    return None


def source_stamp(python: Path | str = sys.executable) -> str:
    """What a build is made from: the engine's source, this script, the
    interpreter and mypy's version; not where the checkout is."""
    digest = hashlib.sha256()
    for path in [Path(__file__), *sorted(SOURCE.glob("*.py"))]:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    versions = subprocess.run(
        [str(python), "-c", ("import sys, sysconfig\ntry:\n import mypy.version as v; m = v.__version__\n"
                             "except ImportError:\n m = None\n"
                             "print(sys.version, sysconfig.get_config_var('EXT_SUFFIX'), m)")],
        capture_output=True, text=True, check=True).stdout
    digest.update(versions.encode())
    return digest.hexdigest()


def selection(entry: Path) -> dict[str, str]:
    """The files of a checkout's selection of the build in ``entry``:
    ``adjudicator/__init__.py``, the source's, whose ``__path__`` is the
    build's and then the source tree's; and ``sitecustomize.py``, which binds
    that package at start-up."""
    source_init = ROOT / "adjudicator" / "__init__.py"
    return {
        "adjudicator/__init__.py": source_init.read_text()
        + "\n# The compiled build (scripts/compiled_engine.py): adjudicator.diplomacy is\n"
        + "# compiled there; every other module of the package is the source tree's.\n"
        + f"__path__[:] = [{str(entry / 'adjudicator')!r}, {str(source_init.parent)!r}]\n",
        "sitecustomize.py":
        '"""Written by scripts/compiled_engine.py: adjudicator is this folder\'s package,\n'
        'whose diplomacy is the compiled engine, wherever this folder is on sys.path and\n'
        'whatever is put there later."""\n'
        "import os\nimport sys\n"
        "sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))\n"
        f"sys.path.append({str(entry)!r})  # mypyc's shared library\n"
        "import adjudicator  # noqa: E402,F401\n"}


def write_selection(out: Path, entry: Path) -> None:
    """Lay out ``out`` as the selection of the build in ``entry``, in place of
    what it held."""
    new = Path(tempfile.mkdtemp(prefix=out.name + ".", dir=out.parent))
    new.chmod(0o755)  # mkdtemp makes it private
    for name, text in selection(entry).items():
        (new / name).parent.mkdir(parents=True, exist_ok=True)
        (new / name).write_text(text)
    old = out.with_name(new.name + ".old")
    if out.exists():
        out.rename(old)
    new.rename(out)
    shutil.rmtree(old, ignore_errors=True)


def is_selected(out: Path, entry: Path) -> bool:
    return (entry / STAMP).exists() and all(
        (out / name).exists() and (out / name).read_text() == text
        for name, text in selection(entry).items())


def is_built(python: Path | str = sys.executable, out: Path = OUT,
             env: dict[str, str] | os._Environ = os.environ) -> bool:
    """Whether ``out`` selects a build of the source as it is now."""
    return out.exists() and is_selected(out, cache_root(env) / source_stamp(python))


def build(python: Path | str = sys.executable, out: Path = OUT,
          env: dict[str, str] | os._Environ = os.environ) -> Path:
    """Make ``out`` select a build of the source as it is now, compiling one
    with ``python`` (a virtual environment's, with mypy) into the cache unless
    it holds one already.  Raises :class:`BuildError`."""
    try:
        root = cache_root(env)
        entry = root / source_stamp(python)
        if is_selected(out, entry):  # the usual case: no lock to wait for
            os.utime(entry / STAMP)  # used now (forget_unused)
            return out
        root.mkdir(parents=True, exist_ok=True)
        out.parent.mkdir(parents=True, exist_ok=True)
        with (root / "lock").open("a") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:  # a second first use waits for the first's build
                print(f"waiting for the Diplomacy engine's build under way in {root}", file=sys.stderr, flush=True)
                fcntl.flock(lock, fcntl.LOCK_EX)
            if not (entry / STAMP).exists():
                compile_into(python, entry, env)
                forget_unused(root)
            if not is_selected(out, entry):
                write_selection(out, entry)
            os.utime(entry / STAMP)  # used now (forget_unused)
    except OSError as e:
        raise BuildError(f"{e.strerror or e}: {e.filename}") from None
    except (subprocess.CalledProcessError, RuntimeError) as e:  # a broken environment, no home folder
        raise BuildError(str(e)) from None
    return out


def forget_unused(root: Path, days: int = 30) -> None:
    """Remove the builds in the cache no checkout has used for ``days``."""
    for stamp in root.glob(f"*/{STAMP}"):
        if stamp.stat().st_mtime < time.time() - days * 86400:
            shutil.rmtree(stamp.parent, ignore_errors=True)


def compile_into(python: Path | str, entry: Path, env: dict[str, str] | os._Environ) -> None:
    """Compile the engine's source into the cache folder ``entry``."""
    missing = missing_toolchain(env)
    if missing:
        raise BuildError(missing)
    if subprocess.run([str(python), "-c", "import mypyc"], capture_output=True, check=False).returncode:
        raise BuildError(f"mypyc is not installed in {python}'s environment")
    staging = Path(tempfile.mkdtemp(prefix=".staging.", dir=entry.parent))
    try:
        package = staging / "adjudicator" / "diplomacy"
        package.mkdir(parents=True)
        (staging / "adjudicator" / "__init__.py").write_text("")
        for path in sorted(SOURCE.glob("*.py")):
            shutil.copy2(path, package / path.name)
        (staging / "setup.py").write_text(SETUP.replace("{opt_level}", OPT_LEVEL))
        print(f"compiling the Diplomacy engine with mypyc into {entry} (once for this source)",
              file=sys.stderr, flush=True)
        done = subprocess.run([str(python), "setup.py", *(f"adjudicator/diplomacy/{m}" for m in COMPILED)],
                              cwd=staging, env=dict(env), capture_output=True, text=True, check=False)
        LOG.parent.mkdir(parents=True, exist_ok=True)
        LOG.write_text(done.stdout + done.stderr)
        if done.returncode != 0:
            last = (done.stderr.strip() or done.stdout.strip() or "no output").splitlines()[-1]
            raise BuildError(f"mypyc failed ({last}; the whole output: {LOG.relative_to(ROOT)})")
        assemble(staging, entry, entry.name, python)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def assemble(staging: Path, entry: Path, stamp: str, python: Path | str = sys.executable) -> None:
    """Lay out ``entry`` from a staging folder where the engine was compiled:
    mypyc's shared library, every extension module, the modules left as source
    with their bytecode (``python``'s: where PYTHONDONTWRITEBYTECODE is set, as
    in the Dockerfile, each process would otherwise compile them again)."""
    new = Path(tempfile.mkdtemp(prefix=".new.", dir=entry.parent))
    new.chmod(0o755)  # mkdtemp makes it private
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
    subprocess.run([str(python), "-m", "compileall", "-q", str(new / "adjudicator")], check=True,
                   capture_output=True)
    (new / STAMP).write_text(stamp)
    new.rename(entry)


def environ(base: dict[str, str], out: Path = OUT) -> dict[str, str]:
    """``base`` with the variables that make a Python process import the
    compiled engine that ``out`` selects instead of the source tree's."""
    path = [str(out)] + ([base["PYTHONPATH"]] if base.get("PYTHONPATH") else [])
    return {k: v for k, v in base.items() if k != REASON} | {"PYTHONPATH": os.pathsep.join(path)}


def select(python: Path | str, base: dict[str, str]) -> dict[str, str]:
    """The environment for ``manage.py serve`` and ``manage.py test`` by
    ``ADJUDICATOR_ENGINE`` (``base``'s): the compiled engine's (built first if
    needed), or the pure engine's with the reason in ``ADJUDICATOR_ENGINE_REASON``.
    "compiled" stops (SystemExit) where "auto" falls back to the pure engine."""
    wanted = mode(base.get(SELECT))
    if wanted == "pure":
        return {**base, REASON: f"{SELECT}=pure"}
    try:
        return environ(base, build(python, OUT, base))
    except BuildError as e:
        if wanted == "compiled":
            raise SystemExit(f"{SELECT}=compiled, but the compiled Diplomacy engine cannot be built: {e}")
        print(f"Diplomacy engine: pure Python, not compiled: {e}",
              file=sys.stderr, flush=True)
        return {**base, REASON: f"not compiled: {e}"}
