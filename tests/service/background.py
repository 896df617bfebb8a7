"""Real-process tests that mostly wait run in the background, from the start of the session.

A test marked ``@pytest.mark.background`` starts real processes (a launcher, a stack,
schedulers) and then mostly waits on them in real time: for deadlines, heartbeats, a launcher's
back-off, processes starting and stopping.  Its body runs in a background thread, started when
collection ends, the marked tests of the session in a few threads (``THREADS``), those whose turn
comes early first (``@pytest.mark.background(early=True)``), then the longest
(``seconds=n``: about how long it runs alone, 5 if not said), while
the other tests use the CPU.  When the test's own turn comes it waits for that run and reports
it: its outcome and its failure, with its traceback, are the test's (run alone, say with ``-k``,
it simply runs then).  Nothing else changes: the test's assertions, its processes, real time.
(The schemathesis run is one too: its own process is busy while the tests here use the CPU.)
``--durations`` shows what a background test's turn waited for its run, not the run.

Under pytest-xdist the first worker (``gw0``) runs them all, from its session's start; it also
writes each outcome to a folder the workers share (in the run's temporary folder), where another worker
whose turn it is reads it (``Outcomes``).  Each runs once, whichever worker is given its turn.

A background test takes only ``tmp_path`` (a fresh directory, as pytest's) and its parameters, no
other fixture (pytest makes fixtures in the main thread, at the test's turn), and starts whatever
it needs (its own Redis) itself.  It must not use the in-process stack: ``wait_for`` in the
background thread is always real time (see ``svc_stack.driving_stack``).
"""
from __future__ import annotations

import hashlib
import inspect
import json
import queue
import tempfile
import threading
import time
import traceback
from concurrent.futures import Future
from pathlib import Path

import pytest

MARK = "background"
DESCRIPTION = (f"{MARK}: a test of real processes that mostly waits on them: its body runs in a background "
               "thread from the start of the session (tests/service/background.py)")


#: the background runs at once: they mostly wait (on processes, on real time), so a few overlap well
THREADS = 4


def start_order(item: pytest.Item) -> tuple[bool, float]:
    """Which background runs start first: those whose turn comes early in the session (``early``:
    collected long before the service tests), then the longest (``seconds``: about how long it runs
    alone, 5 if the mark does not say)."""
    mark = item.get_closest_marker(MARK)
    return mark.kwargs.get("early", False), mark.kwargs.get("seconds", 5)


class Runner:
    """Runs the body of each of ``items`` in order in a thread of its own; ``outcome(item)`` waits
    for an item's run and returns its result or raises its exception."""

    def __init__(self, items: list[pytest.Item], config: pytest.Config, shared: Outcomes | None = None):
        self.config = config
        self.shared = shared
        self.factory = getattr(config, "_tmp_path_factory", None)  # pytest's own, as tmp_path uses it
        if self.factory is not None:
            self.factory.getbasetemp()  # made here, once: its making is not safe from several threads
        self.runs: dict[str, Future] = {item.nodeid: Future() for item in items}
        self.items = items
        self.queue: queue.SimpleQueue[pytest.Item] = queue.SimpleQueue()
        for item in sorted(items, key=start_order, reverse=True):
            self.queue.put(item)
        self.threads = [threading.Thread(target=self._run_queued, name=f"background tests {n}", daemon=True)
                        for n in range(THREADS)]

    def start(self) -> None:
        for thread in self.threads:
            thread.start()

    def __contains__(self, item: pytest.Item) -> bool:
        return item.nodeid in self.runs

    def outcome(self, item: pytest.Item):
        return self.runs[item.nodeid].result()

    def stop(self, finish: bool, timeout: float = 300) -> None:
        """Wait for the test running now to end (it stops its processes); run nothing more unless
        ``finish`` (another worker may still be waiting for a run's outcome)."""
        if not finish:
            for run in self.runs.values():
                run.cancel()
        for thread in self.threads:
            thread.join(None if finish else timeout)
        if self.shared is not None:
            for item in self.items:
                if self.runs[item.nodeid].cancelled():
                    self.shared.write(item, self.runs[item.nodeid])

    def _run_queued(self) -> None:
        while True:
            try:
                item = self.queue.get_nowait()
            except queue.Empty:
                return
            run = self.runs[item.nodeid]
            if not run.set_running_or_notify_cancel():
                continue
            try:
                run.set_result(item.obj(**self._arguments(item)))
            except BaseException as e:  # noqa: BLE001 - the test's own outcome, raised at its turn
                run.set_exception(e)
            if self.shared is not None:
                self.shared.write(item, run)

    def _arguments(self, item: pytest.Item) -> dict:
        params = getattr(getattr(item, "callspec", None), "params", {})
        arguments = {}
        for name in inspect.signature(item.obj).parameters:
            if name in params:
                arguments[name] = params[name]
            elif name == "tmp_path":
                arguments[name] = self._tmp_path(item)
            else:
                raise TypeError(f"{item.nodeid}: a background test takes only tmp_path and its parameters, "
                                f"not the fixture {name!r}")
        return arguments

    def _tmp_path(self, item: pytest.Item) -> Path:
        """A fresh directory, as ``tmp_path`` makes (numbered directories are safe to make at once)."""
        name = "".join(c if c.isalnum() else "_" for c in item.name)[:30]
        if self.factory is not None:
            return self.factory.mktemp(name, numbered=True)
        return Path(tempfile.mkdtemp(prefix=name))


class Outcomes:
    """The outcomes of the background runs, in a folder the xdist workers of one run share."""

    def __init__(self, folder: Path, nodeids: set[str]):
        self.folder = folder
        self.nodeids = nodeids
        folder.mkdir(parents=True, exist_ok=True)

    def __contains__(self, item: pytest.Item) -> bool:
        return item.nodeid in self.nodeids

    def _path(self, item: pytest.Item) -> Path:
        return self.folder / (hashlib.sha256(item.nodeid.encode()).hexdigest()[:20] + ".json")

    def write(self, item: pytest.Item, run: Future) -> None:
        if run.cancelled():
            outcome = {"failure": "not run: the worker running the background tests stopped early"}
        elif run.exception() is not None:
            e = run.exception()
            outcome = {"failure": "".join(traceback.format_exception(type(e), e, e.__traceback__))}
        else:
            outcome = {}
        temporary = self._path(item).with_suffix(".tmp")
        temporary.write_text(json.dumps(outcome))
        temporary.replace(self._path(item))  # readers see the whole outcome or none

    def outcome(self, item: pytest.Item, timeout: float = 900) -> None:
        """Waits for the outcome the runner writes, then passes or fails as the run did."""
        path = self._path(item)
        give_up = time.monotonic() + timeout
        while not path.exists():  # a file written by another process: nothing to wait on but the folder
            if time.monotonic() > give_up:
                pytest.fail(f"no outcome from the background run within {timeout} s", pytrace=False)
            time.sleep(0.2)
        failure = json.loads(path.read_text()).get("failure")
        if failure:
            pytest.fail(f"in the background run (worker gw0):\n{failure}", pytrace=False)


def start(session: pytest.Session) -> Runner | Outcomes | None:
    """The runner of the session's selected background tests, started (None if there are none);
    under xdist, the runner in worker gw0 and the shared outcomes in the others."""
    if session.config.option.collectonly:
        return None
    items = [item for item in session.items if item.get_closest_marker(MARK)]
    if not items:
        return None
    worker = getattr(session.config, "workerinput", None)
    shared = None
    if worker is not None:
        # the workers' temporary folders (popen-gwN) share a parent, which pytest keeps tidy
        folder = session.config._tmp_path_factory.getbasetemp().parent / f"background-{worker['testrunuid']}"
        shared = Outcomes(folder, {item.nodeid for item in items})
        if worker["workerid"] != "gw0":
            return shared
    runner = Runner(items, session.config, shared)
    runner.start()
    return runner
