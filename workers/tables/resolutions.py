"""Resolutions: one run of a procedure of another game (docs/resolutions.md).

A resolution is a table whose steps are the procedure's log entries: ``seq``
is the number of entries so far, the index an answer names.  The engine
(``adjudicator.kinds``) says what each step is; this module keeps the log in
the record, asks the right participant, collects the parts of a sealed step
hidden, and hands every step that needs nobody (server dice, bots, defaults
at a deadline) to a job, which takes it exactly once: it commits only while
the record is still at that ``seq``.

Each log entry keeps the step as it was shown (``shown``) and the record
keeps the engine version.  Every change replays the log first; if the engine
now shows a past step differently, the resolution is *halted* with a message
for the director instead of rewriting history.
"""
from __future__ import annotations

import json
import logging
import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass

from adjudicator import serverdice
from adjudicator.kinds import KINDS, game_of
from adjudicator.procedure import (Decision, Dice, IllegalDecision, InvalidState, NotYourStep, Outcome, Replay,
                                   Sealed, check_answer)

from ..core import keys, live, sessions
from ..core.outcome import JobOutcome
from ..core.clock import Clock
from ..core.machine import RESOLUTION, ResolutionStatus
from ..core.records import ResolutionRecord
from ..core.errors import Conflict, Forbidden, GameError, Invalid, Unauthorized
from ..core.store import hash_token, iso, new_id, new_token
from .viewers import Role, who

log = logging.getLogger(__name__)
ENDED = ("resolved", "cancelled")
RUN_LIMIT = 200  # steps that need nobody taken in one job, at most (a procedure of bots only ends long before)


class Director:
    """The director as a viewer: a kind of its own, which no participant id equals (a participant
    may be called "director"); only the director token's hash makes a viewer this."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "DIRECTOR"


DIRECTOR = Director()
BY_DIRECTOR = "director"  # the log's word for an answer the director gave
Viewer = str | Director | None


def role(viewer: Viewer) -> str | None:
    return None if viewer is None else "director" if viewer is DIRECTOR else "participant"


class Halted(Exception):
    """Replaying the log with this code would change a past step."""


def _normal(value):
    """``value`` as it reads back from JSON (tuples become lists)."""
    return json.loads(json.dumps(value))


@dataclass
class Checked:
    """A replay of a resolution's procedure (``run``) and the log, as stored, that it matches:
    every entry's answer fed, every entry's step shown as the engine shows it."""

    run: Replay
    log: list

    @property
    def current(self):
        """The open step, or the Outcome."""
        return self.run.current


class Replays:
    """This process's replays, one per resolution (the ``size`` most recently used): each is
    the procedure's generator where a stored log left it, so that an answer costs one step
    of the engine, not a replay of the whole log.  One is used only for a log that begins
    with exactly the entries it was checked against (answers, steps as shown, times); a
    replay is *taken* by one thread at a time and *kept* again once it matches a log that
    is stored."""

    def __init__(self, size: int = 2000):
        self.size = size
        self._runs: OrderedDict[str, Checked] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, rid: str) -> Checked | None:
        with self._lock:
            return self._runs.pop(rid, None)

    def keep(self, rid: str, checked: Checked) -> None:
        with self._lock:
            self._runs[rid] = checked
            while len(self._runs) > self.size:
                self._runs.popitem(last=False)


class Resolutions:
    table = "resolution"

    def __init__(self, store):
        self.store = store
        self.replays = Replays()
        self.clock = Clock(store, RESOLUTION, self.key, self.what, self.status_word)

    def key(self, rid: str) -> str:
        return keys.resolution(rid)

    def what(self, rid: str) -> str:
        return f"resolution '{rid}'"

    # ------------------------------------------------------------ create
    def create(self, spec: dict) -> tuple[dict, str, dict[str, str]]:
        procedure = KINDS.get(spec["kind"])
        if procedure is None:
            raise Invalid(f"body.kind: unknown kind '{spec['kind']}'; the kinds are {', '.join(KINDS)}",
                          errors={"kind": [f"one of {list(KINDS)}"]})
        try:
            run = Replay(procedure, spec["state"])
        except InvalidState as e:
            raise Invalid("; ".join(f"body.state.{path}" for path in _paths(e.errors)) + ": invalid",
                          errors={"state": e.errors}) from None
        except IllegalDecision as e:
            raise Invalid(f"body.state: the procedure cannot start from this state: {e}") from None
        except Exception as e:  # a state the schema takes but the engine cannot run: say so, store nothing
            log.exception("%s could not start from a state its schema accepted", spec["kind"])
            raise Invalid(f"body.state: the {spec['kind']} engine cannot start from this state "
                          f"({type(e).__name__}: {e})") from None
        rid = new_id()
        director_token = new_token()
        tokens = {pid: new_token() for pid in spec.get("participants", {})}
        seed = secrets.token_bytes(32)
        record = ResolutionRecord(
            id=rid, kind=spec["kind"], version=procedure.version, created_at=self.store.now(),
            state=spec["state"], participants=spec.get("participants", {}), deadlines=spec.get("deadlines", {}),
            dice=spec.get("dice", "server"), seed=seed.hex(), commitment=serverdice.commitment(seed),
            director=hash_token(director_token), status=ResolutionStatus.OPEN, opened_at=self.store.now())
        with self.store.r.pipeline() as pipe:
            pipe.multi()
            pipe.hset(self.key(rid), mapping=record.save())
            if tokens:
                pipe.hset(keys.resolution_tokens(rid), mapping={hash_token(t): p for p, t in tokens.items()})
            for given in (director_token, *tokens.values()):
                sessions.issued(pipe, sessions.Place("resolution", rid), hash_token(given))
            self._settle(pipe, record, run.current)
            pipe.execute()
        self.replays.keep(rid, Checked(run, []))
        return self.view(rid, DIRECTOR), director_token, tokens

    # ------------------------------------------------------------ reading
    def viewer(self, rid: str, token: str | None) -> Viewer:
        """Who ``token`` is in resolution ``rid``: a participant id, the director, or None (anyone).
        One round trip: the director's hash and the token's holder together."""
        viewer = who(self.store.r, self.table, rid, token)
        if viewer.digest is None:
            return None
        if viewer.is_director:
            return DIRECTOR
        if viewer.role is Role.PARTICIPANT:
            return viewer.holder
        raise Unauthorized(f"the token is not a token of {self.what(rid)}")

    def view(self, rid: str, viewer: Viewer) -> dict:
        return self._view(self.store.record(self.store.r, ResolutionRecord, self.key(rid), self.what(rid)), viewer)

    def _view(self, rec: ResolutionRecord, viewer: Viewer) -> dict:
        """The view of ``rec`` for ``viewer``."""
        procedure = KINDS[rec.kind]
        log = rec.log
        sees = (lambda state: state) if viewer is DIRECTOR else (lambda state: procedure.redact(state, viewer))
        outcome = rec.outcome
        if outcome is not None:
            outcome = {"result": outcome["result"], "state": sees(outcome["state"])}
        ended = rec.status in ENDED
        status = {"open": "waiting", "paused": "waiting"}.get(rec.status, str(rec.status))
        participants = rec.participants
        return {
            "id": rec.id, "kind": rec.kind, "game": game_of(rec.kind), "status": status,
            "paused": rec.status == "paused", "message": rec.message or None,
            "step": None if ended or rec.status == "halted" else self._step_view(rec, viewer),
            "log": [{k: v for k, v in entry.items() if k != "shown"} for entry in log],
            "dice": {"source": rec.dice, "commitment": rec.commitment, "seed": rec.seed if ended else None},
            "outcome": outcome, "you": BY_DIRECTOR if viewer is DIRECTOR else viewer, "role": role(viewer),
            "participants": [{"id": p, "name": info.get("name"), "bot": bool(info.get("bot"))}
                             for p, info in participants.items()],
            "deadlines": rec.deadlines, "engine_version": rec.version,
            "created_at": iso(rec.created_at), "state": sees(rec.state),
        }

    def _step_view(self, rec: ResolutionRecord, viewer: Viewer) -> dict | None:
        step = self._current(rec)
        if step is None or isinstance(step, Outcome):
            return None
        sealed = rec.sealed
        shown = {"index": rec.seq, "participants": list(step.participants), "answered": sorted(sealed),
                 "deadline": iso(rec.deadline),
                 "remaining_seconds": rec.remaining,
                 "waiting_for": self._waiting_for(rec, step)}
        if isinstance(step, Dice):
            return {**shown, "type": "dice", "question": None, "purpose": step.purpose, "count": step.count,
                    "sides": step.sides, "roller": step.roller, "details": dict(step.details),
                    "faces": None if step.faces is None else list(step.faces), "choices": None, "default": None,
                    "has_default": False}
        if isinstance(step, Sealed):
            own = step.decision_for(viewer) if viewer in step.participants else None
            shown |= {"type": "sealed", "question": step.question}
            if own is not None:
                shown |= self._decision_view(own, viewer) | {"your_answer": sealed.get(viewer, {}).get("value")}
            elif viewer is DIRECTOR:
                shown |= {"decisions": [self._decision_view(d, viewer) | {"participant": d.participant}
                                        for d in step.decisions],
                          "choices": None, "details": {}, "default": None, "has_default": step.has_default}
            else:
                shown |= {"choices": None, "details": {}, "default": None, "has_default": step.has_default}
            return shown
        return {**shown, "type": "decision", "question": step.question, **self._decision_view(step, viewer)}

    @staticmethod
    def _decision_view(decision: Decision, viewer: Viewer) -> dict:
        hidden = decision.private and viewer is not DIRECTOR and viewer != decision.participant
        return {"choices": None if hidden or decision.choices is None else _normal(list(decision.choices)),
                "details": {} if hidden else _normal(dict(decision.details)), "details_hidden": hidden,
                "default": None if hidden or not decision.has_default else _normal(decision.default),
                "has_default": decision.has_default, "bot": decision.bot}

    def _waiting_for(self, rec: ResolutionRecord, step) -> str:
        if rec.overdue:
            return "the deadline passed and this step has no default: its participant or the director must answer"
        if self._needs_nobody(rec, step):
            return "the service (server dice or a bot), at once"
        if isinstance(step, Dice):
            return "the director, who enters the dice as rolled"
        return "the participants" if isinstance(step, Sealed) else "the participant"

    # ------------------------------------------------------------ the engine, checked
    def _replay(self, rec: ResolutionRecord) -> Checked:
        """The procedure replayed to the end of the record's log, after checking that the engine
        shows every past step as it was shown.  It goes on from this process's replay of the
        resolution when the log begins with the entries that one was checked against (then
        only the entries since are replayed and checked), else starts from the starting state.
        The caller owns it; ``self.replays.keep`` it once it matches a stored log."""
        procedure = KINDS[rec.kind]
        cached = self.replays.take(rec.id)
        if cached is not None and cached.run.procedure is procedure and cached.log == rec.log[:len(cached.log)]:
            run = cached.run
        else:
            run = Replay(procedure, rec.state)
        for entry in rec.log[len(run.values):]:
            if not _same_step(entry["shown"], _normal(run.current.to_dict())):
                raise Halted(f"replaying the log with engine version {procedure.version} (the resolution began "
                             f"with version {rec.version}) would change step {entry['index']}; the resolution "
                             "is stopped rather than rewriting its history")
            try:
                run.feed(entry["value"])
            except IllegalDecision as e:
                raise Halted(f"the engine (version {procedure.version}) no longer accepts the stored log: {e}") from None
        return Checked(run, rec.log)

    def _current(self, rec: ResolutionRecord):
        """The open step (or the Outcome); None if the log no longer replays."""
        try:
            checked = self._replay(rec)
        except Halted:
            return None
        self.replays.keep(rec.id, checked)
        return checked.current

    def _needs_nobody(self, rec: ResolutionRecord, step) -> bool:
        """Whether the service takes ``step`` itself: server dice, or bots' decisions with a default."""
        if isinstance(step, Dice):
            return rec.dice == "server"
        if isinstance(step, Sealed):
            return all(self._is_bot(rec, d) for d in step.decisions)
        return isinstance(step, Decision) and self._is_bot(rec, step)

    @staticmethod
    def _is_bot(rec: ResolutionRecord, decision: Decision) -> bool:
        """A decision the rules' bot takes: marked by the engine or by the participant's listing."""
        listed = rec.participants.get(decision.participant, {}).get("bot")
        return decision.has_default and (decision.bot or bool(listed))

    def _bot_parts(self, rec: ResolutionRecord, step: Sealed) -> dict:
        """The parts of a sealed step its bots give (their defaults), as they are stored."""
        return {d.participant: {"value": _normal(d.default), "by": "bot"} for d in step.decisions
                if self._is_bot(rec, d)}

    # ------------------------------------------------------------ changes
    def _change(self, rid: str, body):
        """Run ``body(pipe, rec, run)`` in a transaction on the record, ``run`` being the procedure
        replayed to the end of its log (a :class:`Checked`; None once it has ended); a
        resolution whose log no longer replays is halted instead."""
        replayed = {}

        def change(pipe):
            replayed.clear()
            rec = self.store.record(pipe, ResolutionRecord, self.key(rid), self.what(rid))
            try:
                run = self._replay(rec) if rec.status not in ENDED + ("halted",) else None
            except Halted as e:
                pipe.multi()
                RESOLUTION.transition(self.store, pipe, self.key(rid), rec, ResolutionStatus.HALTED, message=str(e))
                live.publish(self.store, pipe, self.table, rid, "resolved", {"status": "halted", "steps": rec.seq})
                return Conflict(f"{self.what(rid)} is halted: {e}")
            replayed["run"] = run
            return body(pipe, rec, run)

        result = self.store.transact([self.key(rid)], change)
        if replayed.get("run") is not None:  # committed: it is where the stored log now ends
            self.replays.keep(rid, replayed["run"])
        if isinstance(result, GameError):
            raise result
        return result

    def _record_entry(self, pipe, rec: ResolutionRecord, run: Checked, value, by,
                      take_run: bool = False) -> ResolutionRecord:
        """Queue (after MULTI) the writes that add ``value`` as the answer to the open step of ``run``,
        then settle what comes next.  ``take_run``: the steps that then need nobody (server dice,
        bots) are taken too, each its own log entry, in this transaction (at most ``RUN_LIMIT``).
        ``run`` moves on with the log it writes.  Returns the record as written."""
        log, step = list(rec.log), run.current
        for _ in range(RUN_LIMIT):
            index = len(log)
            entry = {"index": index, "type": step.to_dict()["type"], "value": _normal(value),
                     "at": iso(self.store.now()), "shown": _normal(step.to_dict())}
            if isinstance(step, Dice):
                entry |= {"participant": step.roller, "purpose": step.purpose, "sides": step.sides, "by": by}
            elif isinstance(step, Sealed):
                entry |= {"participants": list(step.participants), "question": step.question, "sources": by,
                          "by": _overall(by)}
            else:
                entry |= {"participant": step.participant, "question": step.question, "by": by}
            log.append(entry)
            step = run.run.feed(_normal(value))
            live.publish(self.store, pipe, self.table, rec.id, "step", {
                "closed": index, "type": entry["type"], "by": entry["by"] if isinstance(entry["by"], str) else None,
                "step": None if isinstance(step, Outcome) else index + 1})
            rec = rec.changed(log=log, seq=index + 1)
            if not take_run or isinstance(step, Outcome) or not self._needs_nobody(rec, step):
                break
            value, by = self._nobody_answer(rec, step)
        run.log = log
        changes = {"log": log, "seq": len(log), "sealed": {}, "overdue": False, "opened_at": self.store.now()}
        pipe.hset(self.key(rec.id), mapping=ResolutionRecord.encode(**changes))
        return self._settle(pipe, rec.changed(**changes), step)

    def _nobody_answer(self, rec: ResolutionRecord, step) -> tuple:
        """What the service answers to ``step``, which needs nobody, and as whom: ``(value, by)``."""
        if isinstance(step, Dice):
            return serverdice.roll(bytes.fromhex(rec.seed), rec.seq, step.count, step.sides), "server"
        if isinstance(step, Sealed):
            return step.default, {p: "bot" for p in step.participants}
        return step.default, "bot"

    def _settle(self, pipe, rec: ResolutionRecord, step) -> ResolutionRecord:
        """Queue (after MULTI) the writes that open ``step``: the outcome, a job for a step that
        needs nobody, or a wait for its participants with the step's deadline.  Returns the
        record as written."""
        rid, seq = rec.id, rec.seq
        if isinstance(step, Outcome):
            closed = RESOLUTION.transition(self.store, pipe, self.key(rid), rec, ResolutionStatus.RESOLVED,
                                           outcome=_normal(step.to_dict()))
            live.publish(self.store, pipe, self.table, rid, "resolved", {"status": "resolved", "steps": seq})
            return closed
        if self._needs_nobody(rec, step):
            self.store.enqueue_advance(pipe, self.table, rid, seq)
            return RESOLUTION.set_clock(self.store, pipe, self.key(rid), rec)
        if isinstance(step, Sealed):  # the bots' parts are in from the start; the others wait
            rec = rec.changed(sealed=self._bot_parts(rec, step))
            pipe.hset(self.key(rid), mapping=ResolutionRecord.encode(sealed=rec.sealed))
        seconds = None if isinstance(step, Dice) else _seconds(rec.deadlines, step.question)
        if rec.status == "paused":
            return RESOLUTION.set_clock(self.store, pipe, self.key(rid), rec,
                                        remaining="" if seconds is None else seconds)
        return self.clock.open(pipe, rec, seconds)

    # ------------------------------------------------------------ answers
    def answerer(self, rid: str, token: str | None) -> Viewer:
        """Who may answer with ``token``: a participant id or the director (401 without a token)."""
        if not token:
            raise Unauthorized("answering needs a token: send 'Authorization: Bearer <token>'")
        return self.viewer(rid, token)

    def answer(self, rid: str, who: Viewer, index: int, value, participant: str | None = None) -> dict:
        """Record ``value`` as the answer of ``who`` (what :meth:`answerer` said of the token) to step ``index``."""
        if who is not DIRECTOR and participant not in (None, who):
            raise Forbidden(f"you answer as {who}; only the director answers for another participant")
        as_whom = who if who is not DIRECTOR else participant

        def body(pipe, rec, run):  # returns the record as written
            log = rec.log
            if index < len(log) and self._same_answer(log[index], as_whom, value):
                return rec  # a retried request: nothing to write
            if rec.status in ENDED + ("halted",):
                raise Conflict(f"{self.what(rid)} is {rec.status}; it takes no more answers")
            if index != len(log):
                raise Conflict(f"step {index} is not the open step; the open step is {len(log)}",
                               open_step=len(log))
            step = run.current
            by = "participant" if who is not DIRECTOR else BY_DIRECTOR
            try:
                if isinstance(step, Dice):
                    if who is not DIRECTOR or rec.dice != "director":
                        raise NotYourStep("the server rolls these dice" if rec.dice == "server"
                                          else "the director enters the dice")
                    check_answer(step, value)
                elif isinstance(step, Sealed):
                    check_answer(step, value, as_whom)  # the director without a participant: the whole step
                else:
                    if as_whom not in (None, step.participant):
                        raise NotYourStep(f"this step is for {step.participant}, not {as_whom}")
                    check_answer(step, value, as_whom if who is not DIRECTOR else None)
            except NotYourStep as e:
                raise Forbidden(str(e)) from None
            except IllegalDecision as e:
                raise Invalid(f"body.answer: {e}") from None
            pipe.multi()
            if isinstance(step, Sealed) and as_whom is None:
                return self._record_entry(pipe, rec, run, value, {p: by for p in step.participants})
            if isinstance(step, Sealed):
                parts = rec.sealed | {as_whom: {"value": _normal(value), "by": by}}
                if set(parts) == set(step.participants):
                    return self._record_entry(pipe, rec, run, {p: parts[p]["value"] for p in step.participants},
                                              {p: parts[p]["by"] for p in step.participants})
                pipe.hset(self.key(rid), mapping=ResolutionRecord.encode(sealed=parts))
                live.publish(self.store, pipe, self.table, rid, "answered", {
                    "step": index, "participant": as_whom, "answered": sorted(parts)})
                return rec.changed(sealed=parts)
            return self._record_entry(pipe, rec, run, value, by)

        return self._view(self._change(rid, body), who)  # the record as committed: no read again

    @staticmethod
    def _same_answer(entry: dict, as_whom: str | None, value) -> bool:
        """Whether ``entry`` already holds exactly this answer from this participant (a retried request)."""
        if entry["type"] == "sealed":
            return as_whom in entry["value"] and entry["value"][as_whom] == _normal(value)
        return entry["value"] == _normal(value) and (as_whom is None or entry.get("participant") == as_whom)

    # ------------------------------------------------------------ jobs
    def advance(self, rid: str, seq: int, stall: float = 0.0) -> str:
        """Take step ``seq`` if it needs nobody (roll the server dice or give the bot's answer), and
        the steps after it that need nobody either, each its own log entry, in one transaction."""
        if stall:  # fault injection for the test that kills a worker mid-step
            time.sleep(stall)

        def body(pipe, rec, run):
            if rec.status in ENDED + ("halted",) or rec.seq != seq:
                return JobOutcome.noop("step already taken")
            if not self._needs_nobody(rec, run.current):
                return JobOutcome.noop("the step waits for someone")
            pipe.multi()
            self._record_entry(pipe, rec, run, *self._nobody_answer(rec, run.current), take_run=True)
            taken = len(run.log) - seq
            return JobOutcome.did(f"took step {seq}" if taken == 1 else f"took steps {seq} to {seq + taken - 1}")

        return self._change(rid, body)

    def count_attempts(self, due: list[tuple[str, int, int]]) -> None:
        """A step's deadline is taken in one transaction and counts no attempts (``Steps``)."""

    def on_deadline(self, rid: str, seq: int, deadline: int, stall: float = 0.0) -> str:
        """The step's deadline: its default (a sealed step's missing parts) is the answer, if it has one."""
        def body(pipe, rec, run):
            not_due = self.clock.due(rec, seq, deadline)
            if not_due:
                return JobOutcome.noop(not_due)
            step = run.current
            pipe.multi()
            if isinstance(step, Sealed):
                parts = rec.sealed
                missing = [d for d in step.decisions if d.participant not in parts]
                if all(d.has_default for d in missing):
                    parts |= {d.participant: {"value": _normal(d.default), "by": "default"} for d in missing}
                    self._record_entry(pipe, rec, run, {p: parts[p]["value"] for p in step.participants},
                                       {p: parts[p]["by"] for p in step.participants}, take_run=True)
                    return JobOutcome.did(f"defaults for step {seq}")
            elif isinstance(step, Decision) and step.has_default:
                self._record_entry(pipe, rec, run, step.default, "default", take_run=True)
                return JobOutcome.did(f"default for step {seq}")
            RESOLUTION.set_clock(self.store, pipe, self.key(rid), rec, overdue=1)
            return JobOutcome.did(f"step {seq} has no default: it waits")

        return self._change(rid, body)

    # ------------------------------------------------------------ director
    def cancel(self, rid: str, token: str | None) -> dict:
        def change(pipe, rec):
            if rec.status in ENDED:
                raise Conflict(f"{self.what(rid)} is already {rec.status}")
            pipe.multi()
            RESOLUTION.transition(self.store, pipe, self.key(rid), rec, ResolutionStatus.CANCELLED)
            live.publish(self.store, pipe, self.table, rid, "resolved", {"status": "cancelled", "steps": rec.seq})

        self._director(rid, token, change)
        return self.view(rid, DIRECTOR)

    def extend(self, rid: str, token: str | None, seconds: int) -> None:
        self._director(rid, token, lambda pipe, rec: self.clock.extend(pipe, rec, seconds))

    def pause(self, rid: str, token: str | None) -> None:
        self._director(rid, token, self.clock.pause)

    def resume(self, rid: str, token: str | None) -> None:
        self._director(rid, token, self.clock.resume)

    def _director(self, rid: str, token: str | None, change) -> None:
        """Run ``change(pipe, record)`` in a transaction once the director token is checked."""
        def body(pipe):
            rec = self.store.record(pipe, ResolutionRecord, self.key(rid), self.what(rid))
            who(self.store.r, self.table, rid, token).director()
            change(pipe, rec)

        self.store.transact([self.key(rid)], body)

    @staticmethod
    def status_word(rec: ResolutionRecord) -> str:
        return {"open": "waiting"}.get(rec.status, str(rec.status))


def _same_step(shown, now) -> bool:
    """Whether the step the engine shows ``now`` is the one that was ``shown``: everything
    that was shown is unchanged (a field added to the shape since is no change of history)."""
    if isinstance(shown, dict) and isinstance(now, dict):
        return all(key in now and _same_step(value, now[key]) for key, value in shown.items())
    if isinstance(shown, list) and isinstance(now, list):
        return len(shown) == len(now) and all(_same_step(a, b) for a, b in zip(shown, now))
    return shown == now


def _seconds(deadlines: dict, question: str) -> int | None:
    return deadlines.get(question, deadlines.get("default"))


def _overall(sources: dict) -> str:
    """One ``by`` for a sealed step: ``default`` if any part was missed, else who gave the parts
    (``participant`` as soon as one participant gave its own)."""
    values = set(sources.values())
    if "default" in values:
        return "default"
    if "participant" in values:
        return "participant"
    return BY_DIRECTOR if BY_DIRECTOR in values else "bot"


def _paths(errors, prefix: str = "") -> list[str]:
    """The dotted path of every field named in marshmallow's error messages."""
    if isinstance(errors, dict):
        out = []
        for key, value in errors.items():
            path = f"{prefix}.{key}" if prefix else str(key)
            nested = _paths(value, path) if isinstance(value, dict) else []
            out += nested or [path]
        return out
    return [prefix] if prefix else []
