"""Shell sessions of the docs (``$ command`` lines, then what they print) run in one bash
process, a command at a time, and what each command printed set beside what the docs show."""
from __future__ import annotations

import json
import os
import re
import select
import subprocess
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

#: values that differ from run to run: ids, tokens, times
VOLATILE = {"id", "token", "director_token", "tokens", "sent_at", "created_at", "at", "since", "deadline",
            "resets_at", "remaining_seconds", "expires_at", "adjudicated_at", "started_at", "game", "seed",
            "commitment", "server_seed", "opened_at", "due", "resolution"}


class Command(NamedTuple):
    text: str
    shown: list[str]  # the lines the docs show it printing
    shape_only: bool = False  # what it prints hangs on the server's dice: only that it is JSON


#: an id (12 hex digits) or a token (32 characters), wherever it stands in a string
_MINTED = re.compile(r"\b[0-9a-f]{12}\b|(?<![\w-])[A-Za-z0-9_-]{32}(?![\w-])")


def commands(text: str) -> list[Command]:
    out: list[Command] = []
    for line in text.splitlines():
        if line.startswith("$ "):
            out.append(Command(line[2:], []))
        elif out and not out[-1].shown and line[:1].isspace():
            out[-1] = Command(out[-1].text + "\n" + line, [])
        elif out and line.strip():
            out[-1].shown.append(line)
    return out


class Shell:
    """One bash process fed a command at a time, so that its variables and functions last from one
    command to the next.  It reads them from a pipe of its own: its commands' stdin is empty."""

    def __init__(self, cwd: Path, env: dict):
        script, self._script = os.pipe()
        self.errors = tempfile.TemporaryFile()  # its stderr, for a failure's message
        self.proc = subprocess.Popen(["bash", f"/dev/fd/{script}"], pass_fds=(script,), cwd=cwd, env=env,
                                     stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=self.errors)
        os.close(script)
        self._pending = b""  # read from stdout, not yet handed out
        self._runs = 0

    def run(self, text: str, timeout: float = 60) -> str:
        """What the command ``text`` printed on stdout: it runs, then a marker is printed after it."""
        self._runs += 1
        mark = f"\n<<<{self._runs}>>>\n".encode()
        os.write(self._script, f"{text}\nprintf '\\n<<<%d>>>\\n' {self._runs}\n".encode())
        end = time.monotonic() + timeout
        out = self.proc.stdout.fileno()
        while mark not in self._pending:
            left = end - time.monotonic()
            chunk = os.read(out, 65536) if left > 0 and select.select([out], [], [], left)[0] else None
            if not chunk:
                raise AssertionError(f"{text!r} did not finish within {timeout} s (or bash ended):\n"
                                     f"{self._pending[-2000:].decode(errors='replace')}\n{self.stderr()}")
            self._pending += chunk
        printed, self._pending = self._pending.split(mark, 1)
        return printed.decode()

    def stderr(self) -> str:
        self.errors.seek(0)
        return self.errors.read()[-2000:].decode(errors="replace")

    def close(self) -> None:
        os.close(self._script)  # the end of its script: it exits
        self.proc.wait(10)
        self.proc.stdout.close()
        self.errors.close()


def run(cmds: list[Command], cwd: Path, env: dict, timeout: float = 60, sleep=None) -> list[str]:
    """What each command printed (stdout), in one bash process.  ``sleep``: a function that lets N
    seconds pass (a fake clock's ``advance``), called for a ``sleep N`` instead of running it."""
    shell = Shell(cwd, env)
    try:
        printed = []
        for c in cmds:
            pause = re.fullmatch(r"sleep (\d+(?:\.\d+)?)", c.text.strip())
            if sleep is not None and pause:
                sleep(float(pause[1]))
                printed.append("")
            else:
                printed.append(shell.run(c.text, timeout))
        return printed
    finally:
        shell.close()


def _json(text: str):
    """JSON as the docs write it: ``...`` stands for what is left out."""
    text = re.sub(r",\s*\.\.\.\s*,", ",", text.replace("{...}", "{}"))
    text = re.sub(r"([{\[,])\s*\.\.\.\s*,", r"\1", text)
    return json.loads(text)


def differences(shown, got, where="") -> list[str]:
    """How ``got`` differs from what the docs show (``shown``), leaving run-to-run values aside:
    every key shown must be there with the value shown; keys the docs leave out may be there."""
    if isinstance(shown, dict):
        if not isinstance(got, dict):
            return [f"{where}: {got!r} is not an object"]
        found = []
        for key, value in shown.items():
            if key not in got:
                found.append(f"{where}/{key}: missing")
            elif key not in VOLATILE and not _MINTED.fullmatch(key):
                found += differences(value, got[key], f"{where}/{key}")
        return found
    if isinstance(shown, str) and isinstance(got, str):
        shown, got = _MINTED.sub("…", shown), _MINTED.sub("…", got)
    if isinstance(shown, list):
        if not isinstance(got, list) or len(got) != len(shown):
            return [f"{where}: {got!r} is not a list of {len(shown)}"]
        return [d for i, (s, g) in enumerate(zip(shown, got)) for d in differences(s, g, f"{where}/{i}")]
    if isinstance(shown, str) and re.fullmatch(r"\d{4}-\d\d-\d\dT[\d:.]+Z", shown):
        return []  # a time
    return [] if shown == got else [f"{where}: shown {shown!r}, got {got!r}"]


def compare(cmd: Command, printed: str) -> list[str]:
    """Each JSON value the docs show for ``cmd`` against what it printed, in order."""
    if not cmd.shown:
        return []
    shown_text, got_lines = "\n".join(cmd.shown), [ln for ln in printed.splitlines() if ln.strip()]
    try:
        shown = [_json(shown_text)]
        got = [json.loads(printed)]
    except json.JSONDecodeError:
        try:
            shown = [_json(ln) for ln in cmd.shown]
            got = [json.loads(ln) for ln in got_lines]
        except json.JSONDecodeError:
            return [] if shown_text.strip() == printed.strip() else [f"shown {shown_text!r}, got {printed!r}"]
    if cmd.shape_only:
        return []
    if len(shown) != len(got):
        return [f"{len(shown)} values shown, {len(got)} printed: {printed[:300]!r}"]
    return [d for s, g in zip(shown, got) for d in differences(s, g)]
