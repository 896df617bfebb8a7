"""Shell sessions of the docs (``$ command`` lines, then what they print) run in one bash
process, and what each command printed set beside what the docs show."""
from __future__ import annotations

import json
import re
import subprocess
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


def run(cmds: list[Command], cwd: Path, env: dict, timeout: float = 120) -> list[str]:
    """What each command printed (stdout and stderr), in one bash process."""
    mark = "printf '\\n<<<%d>>>\\n' "
    script = "".join(f"{mark}{i}\n{c.text}\n" for i, c in enumerate(cmds)) + f"{mark}{len(cmds)}\n"
    done = subprocess.run(["bash", "-c", script], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    parts = re.split(r"\n<<<\d+>>>\n", done.stdout)[1:-1]
    assert len(parts) == len(cmds), (done.stdout[-2000:], done.stderr[-2000:])
    return parts


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
