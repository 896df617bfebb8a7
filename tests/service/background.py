"""Real-process tests that mostly wait run in the background, from the start of the session.

A test marked ``@pytest.mark.background`` starts real processes (a launcher, a stack,
schedulers) and then mostly waits on them in real time: for deadlines, heartbeats, a launcher's
back-off, processes starting and stopping.  Its body runs in a background thread, started when
collection ends, the marked tests of the session one after another in collection order, while
the other tests use the CPU.  When the test's own turn comes it waits for that run and reports
it: its outcome and its failure, with its traceback, are the test's (run alone, say with ``-k``,
it simply runs then).  Nothing else changes: the test's assertions, its processes, real time.
(The schemathesis run is one too: its own process is busy while the tests here use the CPU.)
``--durations`` shows what a background test's turn waited for its run, not the run.

A background test takes only ``tmp_path`` (a fresh directory, as pytest's) and its parameters, no
other fixture (pytest makes fixtures in the main thread, at the test's turn), and starts whatever
it needs (its own Redis) itself.  It must not use the in-process stack: ``wait_for`` in the
background thread is always real time (see ``svc_stack.driving_stack``).
"""
from __future__ import annotations

import inspect
import tempfile
import threading
from concurrent.futures import Future
from pathlib import Path

import pytest

MARK = "background"
DESCRIPTION = (f"{MARK}: a test of real processes that mostly waits on them: its body runs in a background "
               "thread from the start of the session (tests/service/background.py)")


class Runner:
    """Runs the body of each of ``items`` in order in a thread of its own; ``outcome(item)`` waits
    for an item's run and returns its result or raises its exception."""

    def __init__(self, items: list[pytest.Item], config: pytest.Config):
        self.config = config
        self.factory = getattr(config, "_tmp_path_factory", None)  # pytest's own, as tmp_path uses it
        if self.factory is not None:
            self.factory.getbasetemp()  # made here, once: its making is not safe from several threads
        self.runs: dict[str, Future] = {item.nodeid: Future() for item in items}
        self.thread = threading.Thread(target=self._run_all, args=(items,), name="background tests", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def __contains__(self, item: pytest.Item) -> bool:
        return item.nodeid in self.runs

    def outcome(self, item: pytest.Item):
        return self.runs[item.nodeid].result()

    def stop(self, timeout: float = 300) -> None:
        """Run nothing more; wait for the test running now to end (it stops its processes)."""
        for run in self.runs.values():
            run.cancel()
        self.thread.join(timeout)

    def _run_all(self, items: list[pytest.Item]) -> None:
        for item in items:
            run = self.runs[item.nodeid]
            if not run.set_running_or_notify_cancel():
                continue
            try:
                run.set_result(item.obj(**self._arguments(item)))
            except BaseException as e:  # noqa: BLE001 - the test's own outcome, raised at its turn
                run.set_exception(e)

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


def start(session: pytest.Session) -> Runner | None:
    """The runner of the session's selected background tests, started (None if there are none)."""
    if session.config.option.collectonly:
        return None
    items = [item for item in session.items if item.get_closest_marker(MARK)]
    if not items:
        return None
    runner = Runner(items, session.config)
    runner.start()
    return runner
