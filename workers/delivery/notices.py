"""What happens at a game, in words: the texts of the mail that players get (docs/email.md).

* The positions, results and states as text (also the mail commands' answers use them).
* :data:`MESSAGES`: for each event the mail listens to, its :class:`Notice`: the subject, the text
  (the same for every recipient, or each one's own), who gets it, and the map it carries.

A text holds only what every recipient may see: an event's data is already so
(``workers.delivery.events``); a text made for one player (:attr:`Notice.body` as a function)
adds only that player's own powers.  No ballot, no orders of a phase still open, no press.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import datetime
from collections.abc import Callable

from adjudicator import diplomacy, scoring
from maps import render_png, render_svg

from ..core import keys
from ..core.machine import GameStatus
from ..core.records import GameRecord, HistoryEntry, PlayerRecord, TournamentRecord
from ..core.settings import current as settings
from ..core.store import iso



# ---------------------------------------------------------------- the game as text
def when(ts) -> str:
    """A deadline as players read it: ISO time in UTC and how far off it is."""
    if ts in (None, ""):
        return "no deadline (the clock is stopped)"
    left = float(ts) - time.time()  # the reader's real time, not a table's
    span = (f"{left / 86400:.1f} days" if left >= 2 * 86400 else f"{left / 3600:.1f} hours" if left >= 7200
            else f"{max(left, 0) / 60:.0f} minutes")
    return f"{iso(ts)} (UTC, in {span})" if left > 0 else f"{iso(ts)} (UTC, passed)"


def _ts(text: str) -> float:
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def position_text(position: dict, powers=None) -> str:
    """Units and supply centres per power (of ``powers`` only, if given), and what the phase asks for
    (retreats, adjustments)."""
    lines = []
    units, centers = position.get("units", {}), position.get("centers", {})
    mine = (lambda power: power in powers) if powers is not None else (lambda power: True)
    for power in sorted(p for p in set(units) | set(centers) | set(powers or ()) if mine(p)):
        owned = sorted(centers.get(power, []))
        lines.append(f"{power} ({len(owned)} centre{'s' * (len(owned) != 1)}: {' '.join(owned) or '-'})")
        lines.append("  " + (", ".join(sorted(units.get(power, []))) or "no units"))
    for power, items in sorted(position.get("dislodged", {}).items()):
        for item in items if mine(power) else ():
            unit = item["unit"] if isinstance(item, dict) else item
            options = position.get("retreat_options", {}).get(unit)
            where = f"may retreat to {' '.join(options)}" if options else "must disband"
            lines.append(f"Dislodged: {power} {unit}, {where}")
    for power, n in sorted(position.get("adjustments", {}).items()):
        if mine(power):
            lines.append(f"Adjustment: {power} {'builds' if n > 0 else 'removes'} {abs(n)}")
    return "\n".join(lines)


def results_text(results: list[dict]) -> str:
    lines, last = [], None
    for r in sorted(results, key=lambda r: r.get("power", "")):
        if r.get("power") != last:
            last = r.get("power")
            lines.append(last)
        reason = f" ({r['reason']})" if r.get("reason") else ""
        lines.append(f"  {r.get('order', ''):<30} {r.get('outcome', '')}{reason}")
    return "\n".join(lines) or "  (no orders)"


def state_text(state: dict) -> str:
    """A game's public state (``Games.public_state``) as text."""
    lines = [f"Game {state['id']} {state.get('name') or ''} ({state['variant']}): {state['status']}"]
    if state.get("winner"):
        lines.append(f"Winner: {state['winner']}")
    if not state.get("phase"):
        lines.append(f"{len(state['players'])} of {state['seat_count']} seats taken.")
        return "\n".join(lines)
    deadline = _ts(state["deadline"]) if state.get("deadline") else None
    lines.append(f"Phase {state['phase']}, orders due {when(deadline)}")
    if state.get("late"):
        lines.append(f"Late (the deadline passed without their orders): {', '.join(state['late'])}")
    lines += [f"Must order: {', '.join(state['to_order']) or '-'}",
              f"Have orders: {', '.join(state['submitted']) or '-'}",
              f"Ready: {', '.join(state['ready']) or '-'}", "", position_text(state["position"] or {})]
    return "\n".join(lines)


def in_play_text(g: GameRecord, powers: list[str]) -> str:
    """A game in play as a player taking over ``powers`` finds it: the phase, its deadline, and the
    powers' centres and units."""
    names = " and ".join(powers)
    if g.status == GameStatus.ADJUDICATING:
        clock = "it is being adjudicated now; the results follow by mail"
    elif g.status == GameStatus.HALTED:
        clock = "its adjudication failed and the game is halted until the director rolls it back or ends it"
    else:
        clock = f"orders due {when(g.deadline)}"
    asked = [p for p in powers if p in g.to_order]
    todo = (f"{' and '.join(asked)} must order in this phase." if asked
            else f"{names} {'has' if len(powers) == 1 else 'have'} nothing to order in this phase.")
    return (f"The game is in play: phase {g.phase}, {clock}. {todo}\n\n"
            f"{position_text(g.position or {}, powers)}\n\n"
            "STATUS shows the whole position and who has orders; HISTORY the last results.")


def coin_toss_text(toss: dict, players: list[PlayerRecord]) -> str:
    """The two-player game's coin toss (rules 13.6) as the event that shows it says it."""
    holder = next((p for p in players if p.holds and set(p.powers) & set(toss["side"])), None)
    who = f", played by {holder.name}" if holder and holder.name else ""
    return (f"The coin toss (rules 13.6): Italy joins {', '.join(toss['side'])}{who}. From Spring 1915 "
            "Italy is a normal power of that side, and its territory opens.")


def proposal_terms(p: dict) -> str:
    """A proposal's terms in words (never who proposed it, nor any vote)."""
    return (f"a draw between {', '.join(p.get('members') or [])}" if p["kind"] == "draw"
            else f"a concession to {p.get('to')}")


# ---------------------------------------------------------------- maps
def draw(g: GameRecord, position: dict, results: list[dict] | None = None) -> bytes:
    """The PNG of ``position`` of game ``g``, with ``results`` drawn as orders (docs/maps.md)."""
    svg = render_svg({"variant": g.variant, **position}, results, title=g.name or f"Game {g.id}")
    return render_png(svg, settings().mail_map_width)


def position_at(r, g: GameRecord, seq: int) -> dict | None:
    """The position phase ``seq`` of ``g`` opened at: the current one, or its history record's."""
    if g.seq == seq and g.position:
        return g.position
    found = [h for h in HistoryEntry.loads_all(r.lrange(keys.history(g.id), 0, -1)) if h.seq == seq]
    return {**found[-1].position, "phase": found[-1].phase} if found else None


#: a picture: its file name, the PNG and what it shows (said in the text that it is attached)
Picture = tuple[str, bytes, str]


@dataclass(frozen=True)
class Notice:
    """What an event means to the players: the subject's text; the body, the same for every recipient
    or each one's own (a function of the player); who gets it (the players of ``powers``; None: every
    player with an address); and the map it carries, drawn once, before the transaction."""

    title: str
    body: str | Callable[[PlayerRecord], str]
    powers: set[str] | None = None
    picture: Callable[[], Picture | None] | None = None

    def text(self, player: PlayerRecord) -> str:
        return self.body(player) if callable(self.body) else self.body


# ---------------------------------------------------------------- the events
def _game_started(r, g: GameRecord, data: dict, players: list[PlayerRecord]) -> Notice:
    position = position_at(r, g, data["seq"]) or {}
    toss = f"{coin_toss_text(data['coin_toss'], players)}\n\n" if data.get("coin_toss") else ""

    def body(p: PlayerRecord) -> str:
        return (f"Game {g.id} has started. You play {', '.join(p.powers) or 'no power'}.\n\n"
                f"Phase {data['phase']}: orders due {when(data.get('deadline'))}.\n\n{toss}{position_text(position)}\n")

    def picture() -> Picture | None:
        return (f"{g.id}-{data['phase']}.png", draw(g, position), f"the position of {data['phase']}"
                ) if position else None

    return Notice(f"Started: {data['phase']}", body, picture=picture)


def _phase_adjudicated(r, g: GameRecord, data: dict, players: list[PlayerRecord]) -> Notice:
    seq = data["seq"]
    after = position_at(r, g, seq + 1)
    deadline = g.deadline if g.seq == seq + 1 and g.status in ("open", "paused") else None
    body = f"Results of {data['phase']} in game {g.id}:\n\n{results_text(data['results'])}\n"
    if data.get("bots"):
        body += f"\nThe bot gave the orders of {', '.join(data['bots'])}.\n"
    if after:
        body += f"\nPosition for {after['phase']}:\n\n{position_text(after)}\n"
    if data.get("coin_toss"):
        body += f"\n{coin_toss_text(data['coin_toss'], players)}\n"
    if g.status == "finished" and g.seq == seq + 1:
        body += f"\nThe game is over{': ' + g.winner + ' wins' if g.winner else ''}.\n"
    elif data.get("next_phase") and g.seq == seq + 1:
        body += f"\nNext phase: {data['next_phase']}, orders due {when(deadline) if deadline else '(paused)'}.\n"
    return Notice(f"Results of {data['phase']}", body, picture=lambda: phase_map(r, g, data))


def phase_map(r, g: GameRecord, data: dict) -> Picture | None:
    """The map of the phase just adjudicated (``data`` of a ``phase_adjudicated`` event), its orders and
    their outcomes drawn, from its history record; None if the record is gone."""
    for record in HistoryEntry.loads_all(r.lrange(keys.history(g.id), 0, -1)):
        if record.seq == data["seq"] and not record.superseded:
            position = {**record.position, "phase": record.phase}
            return (f"{g.id}-{record.phase}.png", draw(g, position, record.results),
                    f"{record.phase} with its orders and their outcomes")
    return None


def _deadline_approaching(r, g, data, players) -> Notice:
    body = (f"Reminder: the orders of {', '.join(data['missing'])} for {data['phase']} in game {g.id} "
            f"are due {when(_ts(data['deadline']))}, and none have been received.\n")
    return Notice(f"Reminder: {data['phase']} orders due", body, set(data["missing"]))


def _deadline_passed(r, g, data, players) -> Notice:
    body = (f"The deadline of {data['phase']} in game {g.id} passed at {data['deadline']} "
            f"without orders for {', '.join(data['missing'])}.\n\n")
    if data.get("grace_until"):
        body += (f"There is a grace period: orders are still taken until {data['grace_until']}.\n"
                 "After that, ")
    else:
        body += "Now "
    body += {"wait": "the phase waits for the missing orders.",
             "bot": "the bot orders the powers without orders, for this phase, and it is adjudicated."}.get(
        data.get("policy"), "the units without orders hold (civil disorder) and the phase is adjudicated.")
    return Notice(f"Late: {data['phase']} orders missing", body + "\n", set(data["missing"]))


#: how a game ended (``ended_by``), said after its result
ENDED_BY = {"vote": "The players agreed to it by a vote.", "director": "The director recorded it.",
            "solo": "A power reached the centres for victory.", "last_year": "The game's last year was played.",
            "no_player_left": "No player had a unit left."}


def result_words(result: dict, winner: str | None) -> str:
    """How a game's §2.1 result (``workers.tables.results``) ended, in a few words."""
    end = result["end"]
    if end == "solo":
        return f"{winner or max(result['centers'], key=result['centers'].get)} wins (a solo)"
    if end == "draw":
        return f"a draw between {', '.join(result['draw_members'])}"
    if end == "concession":
        return f"conceded to {result['conceded_to']}"
    return "time called, with the centres as they stand"


def centres_text(result: dict) -> str:
    """Each power's centres at the end, most first (and each side's, where a player has several)."""
    counts = sorted(result["centers"].items(), key=lambda pc: (-pc[1], pc[0]))
    lines = [f"  {power:<10} {n:>2}" + (f"  (eliminated in {result['eliminated_year'][power]})"
                                         if power in result.get("eliminated_year", {}) else "")
             for power, n in counts]
    lines += [f"  {' + '.join(side['powers'])}: {side['centers']} together" for side in result.get("sides") or ()]
    return "Supply centres at the end:\n" + "\n".join(lines)


def scores_text(r, g: GameRecord, result: dict) -> str:
    """The scores of a tournament's board under the tournament's system ("" for a game without one, or
    whose result that system cannot score)."""
    found = r.hgetall(keys.tournament(g.tournament)) if g.tournament else None
    if not found:
        return ""
    system = TournamentRecord.restore(found).system
    try:
        scores = scoring.score(system, {k: v for k, v in result.items() if k != "sides"})
    except (scoring.ResultError, scoring.UnknownSystemError):
        return ""
    lines = [f"  {power:<10} {scoring.rounded(score):>7}"
             for power, score in sorted(scores.items(), key=lambda ps: (-ps[1], ps[0]))]
    return f"\n\nScores under the tournament's system, {system} ({scoring.SYSTEMS[system]}):\n" + "\n".join(lines)


def _game_ended(r, g: GameRecord, data: dict, players: list[PlayerRecord]) -> Notice:
    result = data["result"]
    played = [h for h in HistoryEntry.loads_all(r.lrange(keys.history(g.id), 0, -1)) if not h.superseded]
    last = played[-1].phase if played else None
    if data["ended_by"] in ("vote", "director"):  # while a phase was open: that phase was never played
        when_ = (f"It ended during {data['phase']}, before that phase was adjudicated; "
                 + (f"the last phase played was {last}." if last else "no phase had been played."))
    else:
        when_ = f"It ended when {last} was adjudicated; that was the last phase played."
    what = result_words(result, data.get("winner"))
    body = (f"Game {g.id}{' ' + g.name if g.name else ''} is over: {what}. {ENDED_BY.get(data['ended_by'], '')}"
            f"\n\n{centres_text(result)}{scores_text(r, g, result)}\n\n{when_}\n")

    def picture() -> Picture | None:
        """The final position; none if the game was rolled back since, or if its result was recorded at a
        table with centres the board here does not show (a face-to-face board)."""
        final = g.position if g.status == GameStatus.FINISHED else None
        if not final or {p: len(final["centers"].get(p, [])) for p in result["centers"]} != result["centers"]:
            return None
        return f"{g.id}-final.png", draw(g, final), "the final position"

    return Notice(f"Game over: {what}", body, picture=picture)


def _vote_proposed(r, g: GameRecord, data: dict, players: list[PlayerRecord]) -> Notice:
    pid, terms = data["id"], proposal_terms(data)
    body = (f"A proposal in game {g.id}: {terms} (proposal {pid}, in {data['phase']}).\n\n"
            "It passes, and ends the game, when every surviving power has voted yes; it lapses when "
            f"{data['phase']} is adjudicated. Votes are secret: nobody is told who voted what, nor who "
            "proposed it (the proposing power has voted yes).\n\n"
            f"To vote, reply with\n\n    VOTE {pid} YES\nor\n    VOTE {pid} NO\n\n"
            f"(if you play several powers, name the one that votes: VOTE {pid} YES <power>). "
            "PROPOSALS lists the proposals and your own votes.\n")
    return Notice(f"Proposal: {terms}", body)


def _vote_passed(r, g: GameRecord, data: dict, players: list[PlayerRecord]) -> Notice:
    terms = proposal_terms(data)
    return Notice(f"Proposal passed: {terms}",
                  f"Proposal {data['id']} in game {g.id}, {terms}, passed: every surviving power voted yes. "
                  "The game is over; the next message has its result.\n")


def _vote_lapsed(r, g: GameRecord, data: dict, players: list[PlayerRecord]) -> Notice:
    terms = proposal_terms(data)
    return Notice(f"Proposal lapsed: {terms}",
                  f"Proposal {data['id']} in game {g.id}, {terms}, lapsed without passing ({data['because']}). "
                  "It takes no more votes.\n")


def _seat(r, g, data, players) -> Notice:
    """To the other players: a seat opened for a replacement, or was taken over."""
    names = " and ".join(data["powers"])
    others = set(diplomacy.variant_info(g.variant)["powers"]) - set(data["powers"])
    if data["open"]:
        why = {"left": "its player left", "director": "the director opened it",
               "missed_orders": "its orders were missed", "bot": "the director handed it to the bot"}.get(
            data["cause"], data["cause"])
        plays = ("the bot plays it" if data["cause"] == "bot"
                 else f"{names} plays as the game's missed-orders rule says")
        return Notice(f"{names} is open for a replacement",
                      f"{names} is open for a replacement in game {g.id} ({why}). Until someone takes it over, "
                      f"{plays}.\n\nTo take it over, send\n\n"
                      f"    SIGNON {g.id} {data['powers'][0]} <your name>\n\nto {settings().mail_from}.\n", others)
    return Notice(f"{names} has a new player",
                  f"{names} has a new player in game {g.id}: {data.get('player') or 'a replacement'}.\n", others)


MESSAGES: dict[str, Callable[..., Notice]] = {
    "game_started": _game_started, "phase_adjudicated": _phase_adjudicated,
    "deadline_approaching": _deadline_approaching, "deadline_passed": _deadline_passed,
    "game_ended": _game_ended, "seat": _seat,
    "vote_proposed": _vote_proposed, "vote_passed": _vote_passed, "vote_lapsed": _vote_lapsed}
