"""The curl sessions of docs/ run against an in-process service on a real Redis and a real HTTP
server, its clock faked (tests/service/inprocess.py: ``InProcessStack``, ``serving``), in one bash
process per page fed a command at a time, with curl and jq: every command runs, and prints what the
docs show, but for ids, tokens and times.  A ``sleep N`` of a session is not run: the fake clock
moves on by N seconds (and what fell due runs) instead."""
from __future__ import annotations

import re
import shutil

import pytest

from tests.service.inprocess import serving
from tests.service.svc_stack import environment

from .blocks import DOCS, blocks
from .sessions import Command, commands, compare, run

#: each page's curl session: the heading it starts under
SESSIONS = {"press.md": "## A session with curl", "resolutions.md": "## Worked sessions"}
#: sessions whose dice the service rolls: what they print hangs on the roll, so only its keys are compared
SERVER_DICE = ("Statecraft: a conflict with server dice", "1630: a war vote")


def page_commands(page: str, folder) -> list[Command]:
    """The session's commands in order: a shell block with no prompt (a helper) runs as it is,
    a JSON block the text names (`uprising.json`:) is written to that file first; the command
    that starts the service is left out (the test's service stands in for it)."""
    text = (DOCS / page).read_text(encoding="utf-8")
    start = text[:text.index(SESSIONS[page] + "\n")].count("\n") + 1
    headings = [(n + 1, line) for n, line in enumerate(text.splitlines()) if line.startswith("### ")]
    cmds = []
    for b in blocks(page):
        if b.line < start:
            continue
        section = next((h for n, h in reversed(headings) if n < b.line), "")
        dice = any(title in section for title in SERVER_DICE)
        named = re.search(r"`([\w.-]+\.json)`:\s*$", b.before)
        if b.lang == "json" and named:
            (folder / named[1]).write_text(b.text)
        elif b.lang in ("console", "sh") and "$ " not in b.text:
            cmds.append(Command(b.text, []))
        elif b.lang in ("console", "sh"):
            cmds += [c._replace(shape_only=dice) for c in commands(b.text) if "service.launch" not in c.text]
    return cmds


@pytest.mark.parametrize("page", sorted(SESSIONS))
def test_the_curl_session_prints_what_the_docs_show(page, inproc, tmp_path):
    if not (shutil.which("curl") and shutil.which("jq")):
        pytest.skip("curl and jq are needed: apt-get install -y curl jq")
    cmds = page_commands(page, tmp_path)
    with serving(inproc) as base:
        cmds = [c._replace(text=re.sub(r"http://127\.0\.0\.1:\d+", base, c.text)) for c in cmds]
        printed = run(cmds, tmp_path, environment(), sleep=inproc.advance)
    problems = [f"$ {c.text.splitlines()[0]}\n    {d}" for c, p in zip(cmds, printed) for d in compare(c, p)]
    assert problems == [], "\n".join(problems)
