"""openapi.yaml is exact: a bounded schemathesis run against the running service
finds nothing.

Every operation, positive and negative data, the examples, coverage, fuzzing
and stateful phases (the links declared in the spec carry a created game's and
resolution's ids and tokens on to the operations that need them), every check
but ``ignored_auth``, which counts a token that came from a link as generated
("likely invalid") and so fails the 200 it earns; test_api_hardening.py checks
instead that every operation the spec secures refuses no token and an empty
one.  Which operations may also answer 422 to schema-valid data (the rules of
a game decide, not a schema) is in schemathesis.toml beside this file.

Bounded: a fixed seed, a fixed number of examples per operation (tests/budget.py; the coverage
phase in CI only), one worker
(CPython 3.11's ast.parse, which Hypothesis calls to describe strategies, is
not thread-safe), well under a minute here.

No HTTP: ``schemathesis run`` (a process of its own, the same arguments and
output) has the service in its own process, its requests sent to the WSGI
application of an in-process stack on a Redis of this test
(tests/service/schemathesis_hooks.py).  It runs in the background from the
start of the session (tests/service/background.py), after the tests there
that mostly wait.
"""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.budget import DEEP, examples
from tests.service.svc_stack import ROOT, SPEC, environment

CONFIG = Path(__file__).with_name("schemathesis.toml")
EXAMPLES = examples(20)  # per operation: 20 in CI (tests/budget.py)
# the coverage phase (every operation's boundary values: about 17 s of CPU, whatever the number of
# examples) in CI only
PHASES = ("Examples", "Coverage", "Fuzzing", "Stateful") if DEEP else ("Examples", "Fuzzing", "Stateful")
SEED = 11


@pytest.mark.background(seconds=40)
def test_schemathesis_finds_no_failure(tmp_path):
    from service.launch import start_redis, stop

    redis_proc, redis_url = start_redis(tmp_path / "redis", persist=False)  # the service's store, its own
    env = {**environment(), "REDIS_URL": redis_url, "PYTHONPATH": str(ROOT),
           "SCHEMATHESIS_HOOKS": "tests.service.schemathesis_hooks"}
    command = [str(Path(sys.executable).with_name("schemathesis")), "--config-file", str(CONFIG), "--no-color",
               "run", str(SPEC), "--url", "http://localhost", "--phases", ",".join(PHASES).lower(),
               "--mode", "all", "--checks", "all", "--exclude-checks", "ignored_auth",
               "--max-examples", str(EXAMPLES), "--seed", str(SEED), "--workers", "1",
               "--request-timeout", "15", "--report", "junit", "--report-dir", str(tmp_path)]
    try:
        # bounded, with room for a loaded machine (alone: about 2 minutes for 74 operations)
        run = subprocess.run(command, capture_output=True, text=True, timeout=600, cwd=tmp_path, env=env)
    finally:
        stop(redis_proc)
    assert run.returncode == 0, f"{run.stdout[-12000:]}\n{run.stderr[-3000:]}"
    summary = run.stdout[run.stdout.index("SUMMARY"):]
    for phase in PHASES:
        assert f"✅ {phase}" in summary, summary
    generated, passed = map(int, re.search(r"(\d+) generated, (\d+) passed", summary).groups())
    assert generated == passed > 50 * EXAMPLES, summary
    links = int(re.search(r"API Links:\s+(\d+) covered", run.stdout).group(1))
    assert links >= 8, run.stdout  # the stateful phase followed the spec's links into created games
