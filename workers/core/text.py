"""What a one-line text (a name, a title, a mail header) may hold: no control characters and no
line breaks of any kind (CR, LF, NEL, U+2028, U+2029 and the rest ``str.splitlines`` splits at)."""
from __future__ import annotations

import re

#: C0 and C1 controls (CR, LF, TAB, NUL, NEL, ...), the line and paragraph separators
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
#: the same as a JSON Schema pattern for a whole one-line string (openapi.yaml's names and titles)
ONE_LINE_PATTERN = r"^[^\x00-\x1f\x7f-\x9f\u2028\u2029]*$"


def one_line(value: str) -> str:
    """``value`` with every run of control and line-break characters made one space."""
    return re.sub(r"\s*" + CONTROL.pattern + r"+\s*", " ", value).strip() if CONTROL.search(value) else value
