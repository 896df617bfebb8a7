"""Reading order text: a liberal tokenizer and a small grammar (spec 7.3-7.8).

``parse(text)`` turns one order string into a :class:`Parsed` value or raises
:class:`OrderError` with a short reason.  It knows nothing about the position:
whether the order is *legal* is decided by the phase's rules
(:mod:`.movement`, :mod:`.retreats`, :mod:`.adjustments`).

Accepted, case-insensitively: ids (``NTH``), the seed's abbreviations (``Nth``,
``Nrg``, ``NAt``, ``NAf``, ``Mid``, ``StP``: first three letters of the English
name), full English names (``North Sea``, ``St. Petersburg``), coasts written
``/NC``, ``(nc)``, ``(north coast)`` or ``NC``; ``-``, ``->``, ``to``, ``moves
to``; ``S``/``Supports``, ``C``/``Convoys``, ``H``/``Holds``, ``R``/``Retreats
to``, ``D``/``Disband``/``Remove``, ``B``/``Build``, ``WAIVE``, ``VIA`` (or ``by
convoy``); a power name or adjective before the unit or before a supported or
convoyed unit (``England: F LON - NTH``, ``S Russian A WAR - PRU``), which is
ignored.

Liberal reading never invents an order: text that is not fully read makes the
order invalid, with a reason.  A character that is not a letter, digit,
space or one of ``- : , ( ) / . '`` (and the arrows) is not skipped ("cannot
read 'é'"); nor are trailing filler words ("A PAR - BUR AND").  A convoy route
written out (``A LON - NTH - BEL``, as judges accept) is read as the convoyed
move it names (``A LON - BEL VIA``) only if the route is real on the map, and
so is one written after the destination (``A YOR - NWY VIA NTH``):
seas, each touching the last, from the army's coast to a coast.  Any other
chain of places (``A PAR - BUR - PIC``) is invalid.
"""
from __future__ import annotations

import re
from typing import Final, NamedTuple

from .board import BOARD


class OrderError(ValueError):
    """The order text cannot be read; ``str(err)`` is the reason.

    ``loc`` is the ordered unit's location when the text names one before
    the part that could not be read (so the result can name the unit).
    """

    loc: str | None = None


#: the reason given to an identical repeat of an order already given for a unit
#: (spec 7.8f: it counts once; it still gets a result of its own, outcome "fails")
REPEAT = "a repeat of an order already given for this unit (counted once)"
#: the reason given to each of a unit's orders when they differ (spec 7.8f): all invalid
SEVERAL = "several different orders for one unit"


class Parsed(NamedTuple):
    """One order as written.  Locations may carry a coast (``SPA/NC``)."""

    kind: str  # H M S C R D B W  (hold move support convoy retreat disband build waive)
    utype: str | None = None  # "A" / "F" / None when not written
    loc: str | None = None
    ttype: str | None = None  # S / C: the other unit's type as written
    tloc: str | None = None  # S / C: the other unit's location
    dest: str | None = None  # M / R / C, and S when supporting a move
    via: bool = False
    bare: bool = False  # only a unit was written (no action word)


POWER_WORDS = {
    "ENGLAND": "ENGLAND", "ENGLISH": "ENGLAND", "BRITAIN": "ENGLAND", "BRITISH": "ENGLAND",
    "FRANCE": "FRANCE", "FRENCH": "FRANCE",
    "GERMANY": "GERMANY", "GERMAN": "GERMANY",
    "RUSSIA": "RUSSIA", "RUSSIAN": "RUSSIA",
    "TURKEY": "TURKEY", "TURKISH": "TURKEY",
    "AUSTRIA": "AUSTRIA", "AUSTRIAN": "AUSTRIA", "AUSTRIA HUNGARY": "AUSTRIA",
    "ITALY": "ITALY", "ITALIAN": "ITALY",
}

KEYWORDS = {
    "A": ("U", "A"), "ARMY": ("U", "A"), "F": ("U", "F"), "FLEET": ("U", "F"),
    "H": ("K", "H"), "HOLD": ("K", "H"), "HOLDS": ("K", "H"), "STANDS": ("K", "H"),
    "-": ("K", "-"), "TO": ("K", "-"), "MOVE": ("K", "-"), "MOVES": ("K", "-"),
    "MOVE TO": ("K", "-"), "MOVES TO": ("K", "-"), "M": ("K", "-"),
    "S": ("K", "S"), "SUP": ("K", "S"), "SUPPORT": ("K", "S"), "SUPPORTS": ("K", "S"),
    "C": ("K", "C"), "CONVOY": ("K", "C"), "CONVOYS": ("K", "C"),
    "VIA": ("K", "VIA"), "VIA CONVOY": ("K", "VIA"), "BY CONVOY": ("K", "VIA"),
    "R": ("K", "R"), "RETREAT": ("K", "R"), "RETREATS": ("K", "R"),
    "RETREAT TO": ("K", "R"), "RETREATS TO": ("K", "R"),
    "D": ("K", "D"), "DISBAND": ("K", "D"), "DISBANDS": ("K", "D"),
    "REMOVE": ("K", "D"), "REMOVES": ("K", "D"), "DESTROY": ("K", "D"),
    "B": ("K", "B"), "BUILD": ("K", "B"), "BUILDS": ("K", "B"),
    "WAIVE": ("K", "W"), "WAIVES": ("K", "W"), "WAIVED": ("K", "W"),
}
NOISE = {"THE", "IN", "AT", "FROM", "UNIT", "AND"}
COAST_WORDS = {
    "NC": "NC", "SC": "SC", "EC": "EC", "WC": "WC",
    "NORTH COAST": "NC", "SOUTH COAST": "SC", "EAST COAST": "EC", "WEST COAST": "WC",
    "N COAST": "NC", "S COAST": "SC", "E COAST": "EC", "W COAST": "WC",
}

# Extra names and abbreviations in common use, beyond ids, English names and
# the seed's first-three-letters rule.
EXTRA_NAMES = {
    "NAT": "NAO", "NRG": "NWG", "NAF": "NAF", "MID": "MAO", "STP": "STP",
    "NWG": "NWG", "NAO": "NAO", "MAO": "MAO", "GOB": "BOT", "GOL": "LYO", "TYN": "TYS",
    "TYRR": "TYS", "LYON": "LYO", "LYONS": "LYO", "GULF OF LYONS": "LYO",
    "SAINT PETERSBURG": "STP", "ST PETERSBURG": "STP", "PETERSBURG": "STP",
    "MID ATLANTIC": "MAO", "MIDATLANTIC": "MAO", "MID ATLANTIC OCEAN": "MAO",
    "NORTH ATLANTIC": "NAO", "NORTH AFRICA": "NAF", "HELIGOLAND": "HEL", "HELGOLAND": "HEL",
    "HELGOLAND BIGHT": "HEL", "BOTHNIA": "BOT", "ROMANIA": "RUM", "TYROL": "TYR",
    "MARSEILLE": "MAR", "EAST MEDITERRANEAN": "EAS", "WEST MEDITERRANEAN": "WES",
    "EASTERN MED": "EAS", "WESTERN MED": "WES", "ENGLISH CHANNEL": "ENG",
    "CHANNEL": "ENG", "IRISH": "IRI", "IONIAN": "ION", "ADRIATIC": "ADR", "AEGEAN": "AEG",
    "BALTIC": "BAL", "BARENTS": "BAR", "BLACK": "BLA", "TYRRHENIAN": "TYS",
    "NORWEGIAN": "NWG", "SKAGERRAK": "SKA", "SKAGERAK": "SKA",
}
AMBIGUOUS = object()


def _norm_words(s: str) -> str:
    return " ".join(re.sub(r"[^A-Z ]", " ", s.upper().replace(".", "")).split())


def _build_names() -> dict[str, object]:
    names: dict[str, object] = {}
    prefixes: dict[str, set[str]] = {}
    for pid, prov in BOARD.provinces.items():
        names[pid] = pid
        names[_norm_words(prov.name)] = pid
        letters = re.sub(r"[^A-Z]", "", prov.name.upper())
        prefixes.setdefault(letters[:3], set()).add(pid)
    for abbr, pids in prefixes.items():
        if abbr in names:  # an id wins over a prefix (TYR is Tyrolia, spec 7.6)
            continue
        names[abbr] = next(iter(pids)) if len(pids) == 1 else AMBIGUOUS
    for k, v in EXTRA_NAMES.items():
        names[k] = v
    # the seed's "Nor..." names: Nth Nrg Nwy NAt NAf; NOR alone is ambiguous
    names["NOR"] = AMBIGUOUS
    return names


NAMES: Final = _build_names()
_PHRASES: Final[dict[str, tuple]] = {}
for _k, _v in NAMES.items():
    _PHRASES[_k] = ("P", _v)
for _k, _v in KEYWORDS.items():
    _PHRASES.setdefault(_k, _v)
for _k, _v in POWER_WORDS.items():
    _PHRASES.setdefault(_k, ("W", _v))
for _k, _v in COAST_WORDS.items():
    _PHRASES.setdefault(_k, ("X", _v))
for _k in NOISE:
    _PHRASES.setdefault(_k, ("N", None))
_MAXLEN: Final = max(len(k.split()) for k in _PHRASES)

_RE_ARROW: Final = re.compile(r"->|=>|→|[–—]")
_RE_MIDATL: Final = re.compile(r"MID\s*-\s*ATLANTIC")
_RE_AUSHUN: Final = re.compile(r"AUSTRIA\s*-\s*HUNGARY")
_RE_DOTCOAST: Final = re.compile(r"\b([NSEW])\s*\.\s*C\s*\.?")
_RE_SPLIT: Final = re.compile(r"[^A-Z0-9\-]+")
#: what may separate words besides spaces: "England: F Spain(nc), ...", "STP/SC"
_RE_UNREADABLE: Final = re.compile(r"[^A-Z0-9\-\s:,()/]")

Reading = tuple[Parsed | None, str | None, str | None, str | None, str | None]
#: text -> reading(text)
_cache: Final[dict[str, Reading]] = {}
_SINGLE_NAMES: Final = {k: v for k, v in NAMES.items() if " " not in k and len(k) >= 4
                        and isinstance(v, str)}  # not AMBIGUOUS


def _near(a: str, b: str) -> bool:
    """Damerau distance at most 1 (one letter wrong, missing, extra or swapped)."""
    la, lb = len(a), len(b)
    if abs(la - lb) > 1:
        return False
    if la == lb:
        diff = [k for k in range(la) if a[k] != b[k]]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1
                                  and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]])
    if la > lb:
        a, b = b, a
    for k in range(len(b)):
        if a == b[:k] + b[k + 1:]:
            return True
    return False


def _misspelt(word: str) -> str | None:
    """A province a slightly misspelt word can only mean (spec 7.8b), else None."""
    if len(word) < 4 or not word.isalpha():
        return None
    hits = {v for k, v in _SINGLE_NAMES.items() if _near(word, k)}
    return hits.pop() if len(hits) == 1 else None


def tokenize(text: str, partial: list | None = None) -> list[tuple]:
    """Tokens: ("U", type) ("K", keyword) ("W", power) ("P", province, coast).

    With ``partial`` (a list), the tokens read before an error are left in it.
    """
    s = text.upper()
    s = _RE_ARROW.sub(" - ", s)
    s = _RE_MIDATL.sub("MID ATLANTIC", s)
    s = _RE_AUSHUN.sub("AUSTRIA HUNGARY", s)
    s = _RE_DOTCOAST.sub(r" \1C ", s)
    s = s.replace(".", "").replace("'", "").replace("-", " - ")
    toks: list[tuple] = [] if partial is None else partial
    bad = _RE_UNREADABLE.search(s)
    if bad:  # never skipped: "A PAR é" is not "A PAR"
        if partial is not None:  # the words before it may still name the unit
            try:
                _read_words([w for w in _RE_SPLIT.split(s[:bad.start()]) if w], toks)
            except OrderError:
                pass
        shown = next((c for c in text if c.upper() == bad.group()), bad.group())
        raise OrderError(f"cannot read '{shown}'")
    return _read_words([w for w in _RE_SPLIT.split(s) if w], toks)


def _read_words(words: list[str], toks: list[tuple]) -> list[tuple]:
    i, n = 0, len(words)
    while i < n:
        for size in range(min(_MAXLEN, n - i), 0, -1):
            phrase = " ".join(words[i:i + size])
            hit = _PHRASES.get(phrase)
            if hit is not None:
                break
        else:
            fixed = _misspelt(words[i])
            if fixed is None:
                raise OrderError(f"unknown province '{words[i]}'" if len(words[i]) >= 2
                                 else f"cannot read '{words[i]}'")
            phrase, hit, size = words[i], ("P", fixed), 1
        i += size
        kind = hit[0]
        if kind == "N":
            if i >= n:
                raise OrderError(f"cannot read '{phrase}' at the end of the order")
            continue
        if kind == "P":
            if hit[1] is AMBIGUOUS:
                raise OrderError(f"ambiguous province '{phrase}'")
            toks.append(("P", hit[1], None))
        elif kind == "X":
            if not toks or toks[-1][0] != "P" or toks[-1][2] is not None:
                raise OrderError(f"coast '{phrase}' without a province")
            toks[-1] = ("P", toks[-1][1], hit[1])
        else:
            toks.append(hit)
    return toks


def _loc(tok) -> str:
    return tok[1] + "/" + tok[2] if tok[2] else tok[1]


def reading(text: str) -> Reading:
    """What ``text`` says, cached per process: (Parsed or None, the reason it
    cannot be read or None, the ordered unit's location or None, its province,
    the supported / convoyed unit's province)."""
    hit = _cache.get(text)
    if hit is None:
        try:
            p = _parse(text)
            hit = (p, None, p.loc, p.loc[:3] if p.loc else None, p.tloc[:3] if p.tloc else None)
        except OrderError as err:
            loc = _unit_loc(text)
            hit = (None, str(err), loc, loc[:3] if loc else None, None)
        if len(_cache) < 100_000:
            _cache[text] = hit
    return hit


def parse(text: str) -> Parsed:
    """Read one order.  Raises :class:`OrderError` with a short reason."""
    hit = reading(text)
    parsed = hit[0]
    if parsed is None:  # the reason is in hit[1]
        err = OrderError(hit[1])
        err.loc = hit[2]
        raise err
    return parsed


def _unit_loc(text: str) -> str | None:
    """The unit an unreadable order starts with ("A LVP - YRK" -> "LVP"), if any."""
    toks: list = []
    try:
        tokenize(text, toks)
    except OrderError:
        pass
    if toks and toks[0][0] == "W":
        toks = toks[1:]
    if toks and toks[0] in (("K", "B"), ("K", "D")):
        toks = toks[1:]
    _t, loc, _rest = _unit(toks)
    return loc


_LOCS: Final = BOARD.locations | frozenset(BOARD.provinces)
_TYPES: Final = ("A", "F")


def _fast(text: str) -> Parsed | None:
    """The contract's canonical forms, read without the tokenizer (or None)."""
    w = text.split()
    n = len(w)
    if n < 2 or w[0] not in _TYPES or w[1] not in _LOCS:
        return Parsed("W") if w == ["WAIVE"] else None
    t, loc = w[0], w[1]
    if n == 2:
        return None
    if n == 3:
        if w[2] == "H":
            return Parsed("H", t, loc)
        if w[2] in ("D", "B"):
            return Parsed(w[2], t, loc)
        return None
    if n == 4 and w[2] in ("-", "R") and w[3] in _LOCS:
        return Parsed("M" if w[2] == "-" else "R", t, loc, dest=w[3])
    if n == 5 and w[2] == "-" and w[4] == "VIA" and w[3] in _LOCS:
        return Parsed("M", t, loc, dest=w[3], via=True)
    if w[2] == "S" and n in (5, 7) and w[3] in _TYPES and w[4] in _LOCS:
        if n == 5:
            return Parsed("S", t, loc, w[3], w[4])
        if w[5] == "-" and w[6] in _LOCS:
            return Parsed("S", t, loc, w[3], w[4], w[6])
        return None
    if (n == 7 and w[2] == "C" and w[3] in _TYPES and w[4] in _LOCS and w[5] == "-"
            and w[6] in _LOCS):
        return Parsed("C", t, loc, w[3], w[4], w[6])
    return None


def _parse(text: str) -> Parsed:
    fast = _fast(text)
    if fast is not None:
        return fast
    toks = tokenize(text)
    if not toks:
        raise OrderError("empty order")
    i = 0
    if toks[0][0] == "W":  # power prefix
        i = 1
    rest = toks[i:]
    if len(rest) == 1 and rest[0] == ("K", "W"):
        return Parsed("W")
    lead = None
    if rest and rest[0] in (("K", "B"), ("K", "D")):
        lead = rest[0][1]
        rest = rest[1:]
    utype, loc, rest = _unit(rest)
    if loc is None:
        raise OrderError("cannot parse order: no unit")
    if lead:
        if rest and rest != [("K", lead)]:
            raise OrderError("cannot parse order")
        return Parsed(lead, utype, loc)
    if not rest:
        return Parsed("H", utype, loc, bare=True)
    kw = rest[0]
    if kw[0] == "P":  # "A PAR BUR": a move without the dash
        rest = [("K", "-")] + rest
        kw = rest[0]
    if kw[0] != "K":
        raise OrderError("cannot parse order")
    word, rest = kw[1], rest[1:]
    if word == "H":
        if rest:
            raise OrderError("cannot parse order: text after hold")
        return Parsed("H", utype, loc)
    if word in ("D", "B"):
        if rest:
            raise OrderError("cannot parse order")
        return Parsed(word, utype, loc)
    if word in ("-", "R"):
        via = False
        if rest and rest[-1] == ("K", "VIA"):
            via, rest = True, rest[:-1]
        if word == "R" and rest and rest[0] == ("K", "-"):
            rest = rest[1:]
        seas: list[str] = []
        if ("K", "VIA") in rest and word == "-":  # "A YOR - NWY VIA NTH": the route after the destination
            at = rest.index(("K", "VIA"))
            seas, rest = _path(rest[at + 1:]), rest[:at]
        path = _path(rest)
        if seas:
            if len(path) > 1:
                raise OrderError("cannot parse order: a route is written once")
            path = [*seas, *path]
        dest = path[-1]
        if len(path) > 1:
            # "A LON - NTH - BEL": a convoy route written out, read as the convoyed
            # move it names when the route is real; which fleets carry the army is
            # still decided by the convoy orders (spec E24)
            if word == "R":
                raise OrderError("cannot parse order: a retreat goes to one place")
            _check_route(loc, path)
            via = True
        return Parsed("R" if word == "R" else "M", utype, loc, dest=dest, via=via)
    if word in ("S", "C"):
        if rest and rest[0][0] == "W":  # nationality of the other unit, ignored
            rest = rest[1:]
        ttype, tloc, rest = _unit(rest)
        if tloc is None:
            raise OrderError("cannot parse order: no unit to " +
                             ("support" if word == "S" else "convoy"))
        if word == "S" and rest == [("K", "H")]:  # "A MUN S A BER H"
            return Parsed("S", utype, loc, ttype, tloc)
        if rest and rest[-1] == ("K", "VIA"):  # how the supported/convoyed army moves
            rest = rest[:-1]
            if not rest:
                raise OrderError("cannot parse order: VIA without a destination")
        if not rest:
            if word == "C":
                raise OrderError("cannot parse order: convoy without destination")
            return Parsed("S", utype, loc, ttype, tloc)
        if rest[0] == ("K", "-"):
            rest = rest[1:]
        if len(rest) != 1 or rest[0][0] != "P":
            raise OrderError("cannot parse order: bad destination")
        return Parsed(word, utype, loc, ttype, tloc, _loc(rest[0]))
    raise OrderError("cannot parse order")


def _path(rest) -> list[str]:
    """Locations of ``P [-] P [-] P ...`` (one or more), else OrderError."""
    path = []
    expect_place = True
    for tok in rest:
        if tok[0] == "P":
            path.append(_loc(tok))
            expect_place = False
        elif tok == ("K", "-") and not expect_place:
            expect_place = True
        else:
            raise OrderError("cannot parse order: bad destination")
    if not path or expect_place:
        raise OrderError("cannot parse order: bad destination")
    return path


def _check_route(start: str, path: list[str]) -> None:
    """A written route must be seas, each touching the last, from a coast to a coast."""
    src = start[:3]
    dest = path[-1][:3]
    prev_reach = _coast_seas(src)
    for place in path[:-1]:
        sea = place[:3]
        if not BOARD.is_sea(sea):
            raise OrderError(f"cannot parse order: not a convoy route ({sea} is not a sea)")
        if sea not in prev_reach:
            raise OrderError(f"cannot parse order: not a convoy route ({sea} does not touch "
                             f"{src})")
        prev_reach, src = BOARD.fleet_reach_prov[sea], sea
    if not BOARD.is_coastal(dest) or dest not in prev_reach:
        raise OrderError(f"cannot parse order: not a convoy route ({src} does not touch {dest})")


def _coast_seas(prov: str) -> frozenset:
    """Provinces a fleet could reach from any coast of ``prov`` (empty inland)."""
    locs = BOARD.coasts.get(prov, (prov,))
    return frozenset(n for loc in locs for n in BOARD.fleet_reach_prov.get(loc, ()))


def _unit(toks):
    """[type] province -> (type, location, remaining tokens)."""
    utype = None
    j = 0
    if j < len(toks) and toks[j][0] == "U":
        utype = toks[j][1]
        j += 1
    if j < len(toks) and toks[j][0] == "P":
        return utype, _loc(toks[j]), toks[j + 1:]
    return utype, None, toks[j:]


def written(p: Parsed, unit=None, target=None) -> str | None:
    """Canonical text of a parsed order that may be illegal (for results).

    ``unit`` / ``target`` (objects with ``type`` and ``loc``) replace what was
    written when the units are known.  None when the unit type is unknown.
    """
    if p.kind == "W":
        return "WAIVE"
    t, loc = (unit.type, unit.loc) if unit is not None else (p.utype, p.loc)
    if t is None:
        return None
    head = f"{t} {loc}"
    if p.kind == "H":
        return head + " H"
    if p.kind == "M":
        return f"{head} - {p.dest}" + (" VIA" if p.via else "")
    if p.kind == "R":
        return f"{head} R {p.dest}"
    if p.kind in ("D", "B"):
        return f"{head} {p.kind}"
    tt, tl = (target.type, target.loc) if target is not None else (p.ttype, p.tloc)
    if tt is None:
        tt = "A" if p.kind == "C" else None
    if tt is None:
        return None
    if p.kind == "S":
        return f"{head} S {tt} {tl}" + (f" - {p.dest}" if p.dest else "")
    return f"{head} C {tt} {tl} - {(p.dest or '')[:3]}"  # a convoy always names where to
