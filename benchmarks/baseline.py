"""Running a benchmark side by side with a baseline: another commit of this repository,
checked out into a temporary folder, whose service is started from its own tree."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def checkout(rev: str, into: Path) -> Path:
    """``rev`` checked out (detached) into ``into`` with ``git worktree add``; undo with :func:`remove`."""
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "--force", str(into), rev],
                   check=True, capture_output=True)
    return into


def remove(path: Path) -> None:
    subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(path)], capture_output=True)


def commands(tree: Path, host: str, port: int, env: dict) -> dict[str, list[str]]:
    """The command of each child of the service, as the launcher of ``tree`` makes them
    (``env`` must put ``tree`` first on ``PYTHONPATH``; the children run with ``cwd=tree``)."""
    out = subprocess.run([sys.executable, "-c", "import json; from service.launch import service_commands; "
                          f"print(json.dumps(service_commands({host!r}, {port})))"],
                         env=env, cwd=tree, check=True, capture_output=True, text=True).stdout
    return json.loads(out)
