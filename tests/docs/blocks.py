"""The fenced code blocks of docs/*.md, read as a reader meets them."""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import NamedTuple

DOCS = Path(__file__).resolve().parents[2] / "docs"


class Block(NamedTuple):
    file: str  # e.g. "clients.md"
    line: int  # of the opening fence
    lang: str
    text: str
    before: str  # the paragraph just above it

    def json(self):
        return json.loads(self.text)


def blocks(pattern: str = "*.md") -> list[Block]:
    out = []
    for path in sorted(DOCS.glob(pattern)):
        lines = path.read_text(encoding="utf-8").splitlines()
        i = 0
        while i < len(lines):
            m = re.match(r"^```(\S*)\s*$", lines[i])
            if not m:
                i += 1
                continue
            end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
            above = "\n".join(lines[max(0, i - 6):i]).split("\n\n")[-1]
            out.append(Block(path.name, i + 1, m[1], "\n".join(lines[i + 1:end]), above))
            i = end + 1
    return out
