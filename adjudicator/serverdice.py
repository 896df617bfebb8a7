"""Server dice anyone can check (docs/resolutions.md, "Server dice and how to check them").

At creation the service draws a 32-byte secret ``seed`` and publishes its
``commitment`` = SHA-256(seed).  Die ``j`` of the dice step at log index ``i``
with ``s`` sides is the first ``x mod s + 1`` such that ``x``, the first 8
bytes (big-endian) of HMAC-SHA256(seed, "i:j:a") for a = 0, 1, ..., falls
below the largest multiple of ``s`` under 2**64 (so every face is equally
likely).  When the resolution ends the seed is shown and every die can be
recomputed: ``python -m adjudicator.serverdice view.json`` does it from a
resolution's view alone.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import sys

LIMIT = 2 ** 64


def commitment(seed: bytes) -> str:
    return hashlib.sha256(seed).hexdigest()


def die(seed: bytes, index: int, j: int, sides: int) -> int:
    bound = LIMIT - (LIMIT % sides)
    attempt = 0
    while True:
        digest = hmac.new(seed, f"{index}:{j}:{attempt}".encode("ascii"), hashlib.sha256).digest()
        x = int.from_bytes(digest[:8], "big")
        if x < bound:
            return x % sides + 1
        attempt += 1


def roll(seed: bytes, index: int, count: int, sides: int) -> list[int]:
    """The dice of the dice step at log ``index``."""
    return [die(seed, index, j, sides) for j in range(count)]


def verify(view: dict) -> list[str]:
    """Every reason the server dice of a finished resolution's view do not check out (empty: they do)."""
    dice = view.get("dice") or {}
    if dice.get("source") != "server":
        return ["the dice of this resolution were not rolled by the server"]
    if not dice.get("seed"):
        return ["the seed is shown only once the resolution has ended"]
    seed = bytes.fromhex(dice["seed"])
    problems = []
    if commitment(seed) != dice.get("commitment"):
        problems.append("SHA-256(seed) is not the published commitment")
    for entry in view.get("log", []):
        if entry.get("type") == "dice" and entry.get("by") == "server":
            expected = roll(seed, entry["index"], len(entry["value"]), entry["sides"])
            if expected != entry["value"]:
                problems.append(f"log entry {entry['index']}: dice {entry['value']}, the seed gives {expected}")
    return problems


def main(argv: list[str]) -> int:
    """``python -m adjudicator.serverdice [view.json]`` (standard input without a file)."""
    source = open(argv[0]) if argv else sys.stdin
    with source:
        view = json.load(source)
    problems = verify(view)
    rolled = sum(1 for e in view.get("log", []) if e.get("type") == "dice" and e.get("by") == "server")
    if problems:
        print("\n".join(problems))
        return 1
    print(f"ok: the commitment matches the seed and all {rolled} server dice steps recompute")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
