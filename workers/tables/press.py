"""Press: messages between the powers of a game, under the game's press rules (the press contract,
docs/press.md).

**Rules.** A game's press rules are one object (:data:`DEFAULTS`, the preset ``full``), set at
creation from a preset name or an object (:func:`rules_of`), kept in the game's settings, shown in
its view and changed by the director (audited).

**Storage** (docs/redis-keys.md).  Every message is one field of the game's ``press`` hash (its
number ``n``, which orders it).  Each reader's messages are indexed in a sorted set scored by
the number (never shown: a message's id is random, ``press_ids`` maps it to its number): a power's *box* (the private press it sent or received), ``public`` (broadcasts) and
``all`` (every message, for a director who reads private press).  A power reads its box and
``public``; so ``GET /press?after=<id>`` is two range reads (O(log n + k)) and one ``HMGET``,
however large the game's press.  The keys live and expire with the game (``GameTable.keep``),
and a rollback leaves them alone: each message keeps the phase it was sent in.

**Secrecy.** The record holds the truth; :func:`shown` is the one place that cuts it down for a
reader: ``from`` is null for grey press except to its sender (the director included), a fake
broadcast shows ``to: "all"`` to everyone but its sender, and a reply to grey press hides its
recipient from everyone but that recipient.  Elsewhere a message leaves only as the ``press``
event (id, phase, time: :func:`announce`) and as mail to each recipient, queued in the
transaction that stores it (so it is mailed once, through the outbox).
"""
from __future__ import annotations

import json
import re
import secrets

from adjudicator import diplomacy

from ..core import keys, live
from ..core.errors import Conflict, Forbidden, Invalid, NotFound, Unauthorized
from ..core.machine import GameStatus
from ..core.records import GameRecord, PlayerRecord, PressMessage
from ..core.store import iso
from ..delivery import events, mail

DEFAULTS = {"private": True, "public": True, "grey": "no", "fake_broadcast": False, "phases": "all",
            "director_reads": False}
PRESETS = {"full": {}, "public": {"private": False}, "none": {"private": False, "public": False},
           "grey": {"grey": "only"}, "rulebook": {"phases": "movement"}}
MAX_BODY = 10_000
MAX_CHANGES = 100  # changes of a game's press rules its view lists (the audit log keeps them all)
# what a message's text may not hold: control characters but tab and line feed (a carriage return
# is read as a line feed), the Unicode line and paragraph separators, lone surrogates, U+FFFE, U+FFFF
FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufffe\uffff]")


def rules_of(spec: str | dict | None) -> dict:
    """The whole rules object of a preset name or a (partial) object; None is ``full``."""
    if spec is None:
        return dict(DEFAULTS)
    if isinstance(spec, str):
        return DEFAULTS | PRESETS[spec]
    return DEFAULTS | {k: v for k, v in spec.items() if k in DEFAULTS}


def in_force(settings: dict) -> dict:
    """The press rules of a game (games made before press had rules play ``full``)."""
    return rules_of(settings.get("press"))


def changes(settings: dict) -> list[dict]:
    """When the director changed the press rules, and to what (the game view's ``press_changes``):
    so players know what was sent while the director could read it."""
    return [{"at": iso(c["at"]), "press": c["press"]} for c in settings.get("press_changes", [])]


def message_id(m: PressMessage) -> str:
    """The id a reader sees: random, so it tells nothing of the messages sent in between (a message
    stored before ids were random shows its number)."""
    return m.id or f"m{m.n}"


def new_message_id() -> str:
    return "m" + secrets.token_hex(8)


def shown(m: PressMessage, powers: set[str]) -> dict:
    """Message ``m`` (the stored record) as a reader holding ``powers`` sees it (the director holds none)."""
    sender = m.sender in powers
    to = m.to
    if m.hidden_to and not powers & set(to):
        to = None  # a reply to grey press: only its recipient, the grey sender, knows who that is
    elif m.fake_broadcast and not sender:
        to = "all"
    view = {"id": message_id(m), "phase": m.phase, "sent_at": iso(m.sent_at),
            "from": m.sender if sender or not m.grey else None, "to": to, "body": m.body,
            "grey": m.grey}
    if sender and m.fake_broadcast:
        view["fake_broadcast"] = True
    if m.reply_to:
        view["in_reply_to"] = m.in_reply_to or f"m{m.reply_to}"
    return view


def boxes_of(m: PressMessage, director_reads: bool) -> list[str]:
    """The indexes message ``m`` goes in; ``director``'s only if the rules let the director read
    private press as it is sent (turning ``director_reads`` on later shows nothing sent before)."""
    if m.to == "all":
        return ["public", "all"]
    return ["all", m.sender, *m.to, *(["director"] if director_reads else [])]


def write(pipe, gid: str, m: PressMessage, director_reads: bool) -> None:
    """Queue (after MULTI) the writes that store message ``m`` (number ``m.n``) and index it."""
    n = m.n
    pipe.set(keys.press_count(gid), n)
    pipe.hset(keys.press(gid), n, m.dumps())
    pipe.hset(keys.press_ids(gid), message_id(m), n)
    for box in boxes_of(m, director_reads):
        pipe.zadd(keys.press_box(gid, box), {n: n})


def announce(store, pipe, g: GameRecord, m: PressMessage) -> None:
    """Queue (after MULTI) the ``press`` event: for webhooks the message's id, phase and time, never
    more; on the live streams (workers.core.live) the message as each reader sees it (:func:`readers`).
    The one place a message becomes an event."""
    events.emit(store, pipe, "game", g.id, "press", message_id(m),
                {"id": message_id(m), "phase": m.phase, "sent_at": iso(m.sent_at)},
                listeners=("webhooks",))
    live.publish(store, pipe, "game", g.id, "press", None, views=readers(g, m))  # one entry: one id for all


def readers(g: GameRecord, m: PressMessage) -> list[tuple[dict, list[str]]]:
    """Who may read message ``m``, grouped by what they see: ``(view, audiences)`` pairs, an audience
    being a power or ``director`` (who reads public press, and private press if the rules say so)."""
    groups: dict[str, tuple[dict, list[str]]] = {}
    public = m.to == "all"
    for power in diplomacy.variant_info(g.variant)["powers"]:
        if public or power == m.sender or power in m.to:
            view = shown(m, {power})
            groups.setdefault(json.dumps(view, sort_keys=True), (view, []))[1].append(power)
    if public or in_force(g.settings)["director_reads"]:
        view = shown(m, set())
        groups.setdefault(json.dumps(view, sort_keys=True), (view, []))[1].append("director")
    return list(groups.values())


def alive(position: dict, power: str) -> bool:
    """Whether ``power`` is still in the game: a unit (dislodged ones too) or a supply centre."""
    return bool(position.get("units", {}).get(power) or position.get("centers", {}).get(power)
                or position.get("dislodged", {}).get(power))


def normal_text(body: str) -> str:
    """A message's text with its line ends as line feeds."""
    return body.replace("\r\n", "\n").replace("\r", "\n")


def text_problem(body: str) -> str | None:
    """What is wrong with a message's text (None: nothing)."""
    if not 1 <= len(body) <= MAX_BODY:
        return f"a message is 1 to {MAX_BODY} characters, not {len(body)}"
    found = FORBIDDEN.search(body)
    if found:
        return (f"a message holds no control character but tab and line breaks, and no lone surrogate "
                f"nor U+FFFE, U+FFFF (found U+{ord(found.group()):04X} at {found.start()})")
    return None


def check_body(body: str, where: str = "body.body") -> None:
    problem = text_problem(body)
    if problem:
        raise Invalid(f"{where}: {problem}", errors={"body": [problem]})


class Press:
    """Sending and reading a game's press; built on the games' ``GameTable`` (``table``)."""

    def __init__(self, table):
        self.t, self.store, self.r = table, table.store, table.r

    # ------------------------------------------------------------ who is asking
    def _player(self, gid: str, token: str | None) -> PlayerRecord:
        viewer = self.t.who(gid, token)
        if viewer.is_director:
            raise Forbidden("the director does not send press as a power; only players do")
        return viewer.player()

    @staticmethod
    def _power(player: PlayerRecord, power: str | None) -> str:
        powers = player.powers
        if power is None:
            if len(powers) == 1:
                return powers[0]
            raise Invalid(f"body.power: you play {', '.join(powers) or 'no power yet'}; name the one that writes",
                          errors={"power": ["required for a player of several powers"]})
        if power not in powers:
            raise Forbidden(f"{power} is not your power; you play {', '.join(powers) or 'no power yet'}")
        return power

    # ------------------------------------------------------------ send
    def send(self, gid: str, token: str | None, power: str | None, to, body: str, grey: bool | None = None,
             fake_broadcast: bool = False, reply_to: PressMessage | None = None, hidden_to: bool = False,
             source: str | None = None) -> dict:
        """Send ``body`` from ``power`` (one of the token's) to ``to`` (a list of powers, or ``"all"``);
        ``grey`` None is the game's default (grey only when its press is grey only).  Returns the
        message as its sender sees it.  ``source`` (an incoming mail and block) makes a second
        send of the same source return the first message instead."""
        player = self._player(gid, token)
        power = self._power(player, power)
        body = normal_text(body)
        check_body(body)

        def change(pipe):
            g = self.t.load(pipe, gid)
            if source:
                known = pipe.hget(keys.press_sources(gid), source)
                if known:
                    return shown(PressMessage.loads(pipe.hget(keys.press(gid), known)), set(player.powers))
            rules = in_force(g.settings)
            recipients = self._check(g, rules, player, power, to, grey, fake_broadcast)
            players = self.t.players(pipe, gid)
            n = int(pipe.get(keys.press_count(gid)) or 0) + 1
            m = PressMessage(n, g.phase, self.store.now(), recipients, g.seq, body,
                             rules["grey"] == "only" if grey is None else grey, fake_broadcast, hidden_to,
                             reply_to.n if reply_to else None, new_message_id(),
                             message_id(reply_to) if reply_to else None, sender=power)
            pipe.multi()
            write(pipe, gid, m, rules["director_reads"])
            if source:
                pipe.hset(keys.press_sources(gid), source, n)
            announce(self.store, pipe, g, m)
            self._mail(pipe, g, m, players, player)
            return shown(m, set(player.powers))

        return self.store.transact([keys.game(gid), keys.press_count(gid)], change)

    def _check(self, g: GameRecord, rules: dict, player: dict, power: str, to, grey, fake_broadcast):
        """The recipients of a message the rules allow (``"all"`` or a sorted list); else the 409 or
        422 that names the rule."""
        if g.status == GameStatus.FORMING:
            raise Conflict(f"game '{g.id}' has not started; press opens when it starts")
        if g.status == GameStatus.FINISHED:
            raise Conflict(f"game '{g.id}' is over; press is closed")
        if rules["phases"] == "movement" and not g.phase.endswith("M"):
            raise Invalid(f"no press while a retreat or adjustment phase is open ({g.phase}): "
                          "this game's press rules say phases: movement")
        if not alive(g.position or {}, power):
            raise Invalid(f"{power} has no unit and no supply centre left: only a power still in the game "
                          "may send press")
        if to == "all":
            if not rules["public"]:
                raise Invalid("broadcasts are off in this game: its press rules say public: false")
            if fake_broadcast:
                raise Invalid("body.fake_broadcast: a fake broadcast goes to a group of powers, not to all")
            recipients = "all"
        else:
            variant = diplomacy.variant_info(g.variant)["powers"]
            recipients = sorted(set(to))
            for p in recipients:
                if p not in variant:
                    raise Invalid(f"body.to: {p} is not a power of this game ({', '.join(variant)})")
                if p in player.powers:
                    raise Invalid(f"body.to: {p} is your own power; press goes to other powers")
            if not recipients:
                raise Invalid("body.to: name at least one power, or \"all\"")
            if not rules["private"]:
                raise Invalid("private press is off in this game: its press rules say private: false")
            if fake_broadcast and not rules["fake_broadcast"]:
                raise Invalid("fake broadcasts are off in this game: its press rules say fake_broadcast: false")
        if grey and rules["grey"] == "no":
            raise Invalid("grey press is off in this game: its press rules say grey: no")
        if grey is False and rules["grey"] == "only":
            raise Invalid("press in this game is grey only: its press rules say grey: only")
        return recipients

    def _mail(self, pipe, g: GameRecord, m: PressMessage, players: list[PlayerRecord], sender: PlayerRecord) -> None:
        """Queue (after MULTI) the message to each recipient player with an address, as that player sees it."""
        for p in players:
            if p.id == sender.id or not p.email:
                continue
            powers = set(p.powers)
            if m.to != "all" and not powers & set(m.to):
                continue
            view = shown(m, powers)
            mail.press(self.store, pipe, g, p, view, self._answers(m, view, powers))

    @staticmethod
    def _answers(m: PressMessage, view: dict, powers: set[str]) -> str:
        """Who a recipient holding ``powers`` reaches by answering ``m``, as that recipient may know it."""
        if m.grey:
            return "its sender alone (who stays unknown to you)"
        if view["to"] == "all":
            return f"{m.sender} alone"
        others = [p for p in m.to if p not in powers]
        return ", ".join([m.sender, *others])

    def reply(self, gid: str, token: str | None, mid: str, body: str, source: str | None = None) -> dict:
        """Answer message ``mid`` that the token's player received (a reply to its mail): press to
        its sender and its other recipients, or to its sender alone for grey press and (fake)
        broadcasts; a reply to grey press hides its recipient from its own sender."""
        player = self.t.player_for(gid, token)
        m = self.find(gid, mid)
        powers = set(player.powers)
        if m is None or m.sender in powers or (m.to != "all" and not powers & set(m.to)):
            raise NotFound(f"you received no message {mid} in game '{gid}'")
        power = sorted(powers if m.to == "all" else powers & set(m.to))[0]
        if m.grey or m.to == "all" or m.fake_broadcast:
            to = [m.sender]
        else:
            to = sorted((set(m.to) | {m.sender}) - powers)
        return self.send(gid, token, power, to, body, reply_to=m, hidden_to=m.grey, source=source)

    def find(self, gid: str, mid: str) -> PressMessage | None:
        """The message whose public id is ``mid`` (None: none).  ``m{n}`` finds a message by its number
        only if it was stored before ids were random (so no number can be probed)."""
        n = self.r.hget(keys.press_ids(gid), mid)
        if n is None:
            if not re.fullmatch(r"m[0-9]{1,12}", mid):
                return None
            n = mid[1:]
        raw = self.r.hget(keys.press(gid), n)
        m = PressMessage.loads(raw) if raw else None
        return m if m is not None and message_id(m) == mid else None

    # ------------------------------------------------------------ read
    def read(self, gid: str, token: str | None, after: str | None = None, limit: int | None = None) -> list[dict]:
        """The messages after message ``after`` (an id) the token may read, oldest first (at most ``limit``)."""
        if not token:
            raise Unauthorized("this needs a player token or the director token: send 'Authorization: Bearer <token>'")
        viewer = self.t.who(gid, token)
        start = 0
        if after is not None:
            found = self.find(gid, after)
            if found is None:
                raise Invalid(f"query.after: game '{gid}' has no message {after}", errors={"after": ["no such message"]})
            start = found.n
        if viewer.is_director:
            powers: set[str] = set()
            boxes = ["public", "director"]  # private press sent while director_reads was on
        else:
            powers = set(viewer.player().powers)
            boxes = [*sorted(powers), "public"]
        with self.r.pipeline(transaction=False) as pipe:
            for box in boxes:
                pipe.zrangebyscore(keys.press_box(gid, box), f"({start}", "+inf",
                                   **({"start": 0, "num": limit} if limit else {}))
            found = sorted({int(n) for ns in pipe.execute() for n in ns})[:limit]
        if not found:
            return []
        return [shown(m, powers) for m in PressMessage.loads_all(self.r.hmget(keys.press(gid), found))]

    # ------------------------------------------------------------ the rules
    def set_rules(self, gid: str, token: str | None, spec: str | dict) -> None:
        """The director's change of the game's press rules (audited)."""
        rules = rules_of(spec)
        detail = {"press": rules}

        def change(pipe, g: GameRecord):
            if g.status == GameStatus.FINISHED:
                raise Conflict(f"game '{gid}' is over")
            detail["was"] = in_force(g.settings)
            changes = [*g.settings.get("press_changes", []), {"at": self.store.now(), "press": rules}]
            pipe.multi()
            pipe.hset(keys.game(gid), mapping=GameRecord.encode(
                settings={**g.settings, "press": rules, "press_changes": changes[-MAX_CHANGES:]}))

        self.t.director(gid, token, "press_rules", detail, change)
