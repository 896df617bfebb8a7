"""The examples of docs/clients.md run against a real service (gunicorn, an RQ worker and the
scheduler on a Redis of their own: tests/conftest.py's ``stack``): the Python session as a
program of its own, and the browser's EventSource snippet in Chromium."""
from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
import requests

from tests.service.test_pages_browser import chromium

from .blocks import blocks

CLIENTS = {b.lang: b for b in blocks("clients.md") if b.lang in ("python", "html")}


def test_the_python_session_runs_to_its_end(stack):
    code = CLIENTS["python"].text
    assert 'BASE = "http://127.0.0.1:8000"' in code
    code = code.replace('BASE = "http://127.0.0.1:8000"', f"BASE = {stack.base!r}")
    code += "\nprint('exported', record['id'], len(record['phases']))\n"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    phase = [line for line in done.stdout.splitlines() if " phase {" in line]
    assert phase and "'phase': 'S1901M'" in phase[0], done.stdout
    assert re.search(r"^exported \S+ 1$", done.stdout, re.M), done.stdout


def post(base: str, path: str, token: str | None = None, **body) -> dict:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    r = requests.post(base + path, json=body, headers=headers, timeout=15)
    assert r.status_code < 300, r.text
    return r.json()


def test_the_eventsource_snippet_follows_a_game_in_chromium(stack):
    executable = chromium()
    if executable is None:
        pytest.skip("no Chromium to drive: apt-get install -y chromium")
    from playwright.sync_api import sync_playwright

    base = stack.base
    made = post(base, "/v1/games", assignment="chosen")
    gid, director = made["game"]["id"], made["director_token"]
    france = post(base, f"/v1/games/{gid}/players", name="Bo", power="FRANCE")["token"]
    england = post(base, f"/v1/games/{gid}/players", name="Ann", power="ENGLAND")["token"]
    script = CLIENTS["html"].text.strip().removeprefix("<script>").removesuffix("</script>")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        try:
            page = browser.new_page()
            page.goto(base + "/v1/health")  # the snippet's paths are the service's own
            page.evaluate(f"""() => {{
                window.gameId = {json.dumps(gid)}; window.playerToken = {json.dumps(france)};
                window.shown = []; window.showMessage = (m) => window.shown.push(m);
                window.opened = new Promise((ok) => {{
                    const real = window.EventSource;
                    window.EventSource = function (url) {{ const s = new real(url); s.onopen = ok;
                                                           window.stream = s; return s; }};
                }});
                {script}
            }}""")
            page.wait_for_function("() => window.stream && window.stream.readyState === 1", timeout=15_000)
            post(base, f"/v1/games/{gid}/start", director)
            page.wait_for_function("() => document.title.startsWith('S1901M: orders due')", timeout=15_000)
            post(base, f"/v1/games/{gid}/press", england, to="all", body="Hello from London")
            page.wait_for_function("() => window.shown.length === 1", timeout=15_000)
            assert page.evaluate("() => window.shown[0].body") == "Hello from London"
            post(base, f"/v1/games/{gid}/end", director, reason="a test")
            page.wait_for_function("() => window.stream.readyState === 2", timeout=15_000)  # closed
        finally:
            browser.close()
