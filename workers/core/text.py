"""What a text may hold.  Every text a person or a record supplies (:func:`unsafe_in`): nothing XML
cannot hold and no control character but tab and line breaks, so that every map, page and mail
can show it.  A one-line text (a name, a title, a mail header): no control characters and no line
breaks of any kind (CR, LF, NEL, U+2028, U+2029 and the rest ``str.splitlines`` splits at)."""
from __future__ import annotations

import re

#: C0 and C1 controls (CR, LF, TAB, NUL, NEL, ...), the line and paragraph separators
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
#: the same as a JSON Schema pattern for a whole one-line string (openapi.yaml's names and titles)
ONE_LINE_PATTERN = r"^[^\x00-\x1f\x7f-\x9f\u2028\u2029]*$"


def one_line(value: str) -> str:
    """``value`` with every run of control and line-break characters made one space."""
    return re.sub(r"\s*" + CONTROL.pattern + r"+\s*", " ", value).strip() if CONTROL.search(value) else value


#: what no text may hold: C0 controls but tab, line feed and carriage return, DEL and the C1
#: controls, unpaired surrogates, and U+FFFE and U+FFFF (XML 1.0 holds none of them but tab, LF, CR)
UNSAFE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")
#: unpaired surrogates alone (what JSON's ``\ud800`` escapes can make, and no store can hold)
SURROGATE = re.compile("[\ud800-\udfff]")


def unsafe(value: str, pattern: re.Pattern = UNSAFE) -> str | None:
    """What is wrong with ``value`` (None: nothing), looking for what ``pattern`` finds."""
    found = pattern.search(value)
    if found is None:
        return None
    return (f"U+{ord(found.group()):04X} at {found.start()}: a text holds no control character but tab and line "
            "breaks (a name or title is one line: none at all), no unpaired surrogate, no U+FFFE or U+FFFF")


def unsafe_in(value, path: str = "", pattern: re.Pattern = UNSAFE) -> tuple[str, str] | None:
    """The first text in ``value`` (JSON: strings, lists, objects and their keys) that :func:`unsafe`
    refuses, as ``(where, why)``: ``where`` is its path under ``value`` (".name", "[2]"), or None."""
    if isinstance(value, str):
        problem = unsafe(value, pattern)
        return (path, problem) if problem else None
    if isinstance(value, dict):
        for key, item in value.items():
            where = f"{path}.{key}" if isinstance(key, str) and not unsafe(key) else f"{path}.<key>"
            found = unsafe_in(key, where, pattern) or unsafe_in(item, where, pattern)
            if found:
                return found
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found = unsafe_in(item, f"{path}[{i}]", pattern)
            if found:
                return found
    return None
