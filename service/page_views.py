"""What the action pages show, read from the same table methods as the API (contracts/play.md):
the player's page of a game, the controls of a resolution's open step, an account's games; and
what their forms send, read back into the shapes those methods take."""
from __future__ import annotations

import json

from flask import current_app

from maps import phase_title
from workers.core.errors import Invalid, NotFound
from workers.tables.viewers import Viewer

from . import boards
from .page_auth import credential


def games():
    return current_app.extensions["games"]


NEWEST_MESSAGES = 100  # the press a page lists, newest first


def play_view(gid: str, found: Viewer) -> dict:
    """Everything the player's page shows to the player ``found``."""
    token = credential(found)
    g = games()
    state = g.views.public_state(gid)
    history = boards.live_history(gid)
    own = g.views.own_orders(gid, token)
    for mine in own["powers"].values():
        mine["orders"] = mine["orders"] or []
    finished = state["status"] == "finished"
    messages = [] if state["status"] == "forming" else g.press.read(gid, token)[-NEWEST_MESSAGES:][::-1]
    proposals = g.votes.proposals(gid, token)
    centres = (state.get("position") or {}).get("centers") or {}
    survivors = sorted(p for p, cs in centres.items() if cs)
    powers = [power for seat in state["seats"] for power in [seat["power"]]]
    options = {}
    if state["status"] in ("open", "paused") and any(m["must_order"] for m in own["powers"].values()):
        options = g.views.options(gid, token)["powers"]
    sections = []
    for power, mine in own["powers"].items():
        sections.append({"power": power, "must_order": mine["must_order"], "ready": mine["ready"],
                         "orders": mine["orders"], "units": _units(state, power),
                         "options": options_of(options.get(power), mine["orders"]),
                         "alive": power in survivors})
    return {"state": state, "title": boards.title(state), "sections": sections, "finished": finished,
            "last": history[-1] if history else None, "phases": [h.phase for h in history],
            "messages": messages, "press": state["press"], "proposals": proposals, "survivors": survivors,
            "powers": powers, "mine": list(own["powers"]), "describe_map": _map_text(state, own)}


def _units(state: dict, power: str) -> list[str]:
    return list(((state.get("position") or {}).get("units") or {}).get(power) or [])


def options_of(found: dict | None, stored: list[str]) -> dict:
    """The selects of a power's form, from its options (``games.views.options``, as
    ``GET /v1/games/{id}/options`` answers them) with its stored orders selected: ``units``
    ({unit: {"choices": [...], "selected": order}}) in movement and retreats, ``slots``
    ([{name, choices, selected}]) for the builds or disbands due."""
    if not found:
        return {"units": {}, "slots": []}
    if "builds" not in found:
        return {"units": {unit: {"choices": choices, "selected": next((o for o in stored if o in choices),
                                                                         choices[0] if choices else "")}
                          for unit, choices in found.items()}, "slots": []}
    n = found["builds"]
    if n > 0:
        choices, word, default = [*(o for site in found["sites"].values() for o in site), "WAIVE"], "Build", "WAIVE"
    else:
        choices, word, default = ["", *found["disbands"]], "Disband", ""
    kept = [o for o in stored if o in choices]
    return {"units": {}, "slots": [{"name": f"{word} {i + 1}", "choices": choices,
                                    "selected": kept[i] if i < len(kept) else default} for i in range(abs(n))]}


def _map_text(state: dict, own: dict) -> str:
    drawn = sum(len(mine["orders"]) for mine in own["powers"].values())
    phase = state.get("phase")
    where = phase_title(phase) if phase else "the start"
    return (f"Map of {where} with your {drawn} stored orders drawn; only you see them. "
            "Your orders are also listed as text in each power's section.")


def without_orders(gid: str, found: Viewer) -> list[str]:
    """The player's powers that must order in the open phase and have no orders stored."""
    own = games().views.own_orders(gid, credential(found))
    return [p for p, mine in own["powers"].items() if mine["must_order"] and not mine["orders"]]


def orders_from_form(form) -> list[str]:
    """The orders a power's form sends: the text area's lines if it has any, else the selects' choices."""
    typed = [line.strip() for line in (form.get("text") or "").splitlines() if line.strip()]
    if typed:
        return typed
    return [value for name, value in form.items(multi=True) if name.startswith("order:") and value.strip()]


def result_from_form(form, powers: list[str]) -> dict:
    """A result recorded at the table as its form sends it ("Draw" and its members, "Solo" and its
    winner, "Concession" and to whom, or "Time called"; the centres counted, where typed), in the shape
    of the API's ``result`` (service/schemas.py, TableResultSchema), which checks it."""
    end = form.get("end", "")
    result = {"end": end} | {"draw": {"members": form.getlist("members")}, "solo": {"winner": form.get("winner", "")},
                             "concession": {"to": form.get("to", "")}}.get(end, {})
    counted = {p: form.get(f"centres:{p}", "").strip() for p in powers}
    if any(counted.values()):
        result["centers"] = {p: int(n) if n.isdigit() else n for p, n in counted.items() if n}
    return result


# ---------------------------------------------------------------- a resolution
def label(choice) -> str:
    if isinstance(choice, str):
        return choice
    return json.dumps(choice, ensure_ascii=False)


def resolution_controls(view: dict, as_whom) -> dict:
    """What the open step asks of ``as_whom``: ``choices`` ([(index, label)]), ``dice`` (count and
    sides, for the director's dice), ``free`` (an answer typed as JSON), or nothing."""
    step = view.get("step")
    none = {"choices": [], "dice": None, "free": False, "mine": False}
    if not step or as_whom is None:
        return none
    if step["type"] == "dice":
        mine = view["role"] == "director" and step["waiting_for"].startswith("the director")
        return none | ({"dice": {"count": step["count"], "sides": step["sides"]}, "mine": True} if mine else {})
    asked = step.get("participants") or []
    if view["role"] != "director" and view["you"] not in asked:
        return none
    if step["type"] == "sealed" and view["role"] == "director":
        return none  # each participant answers its own part
    if step["type"] == "sealed" and view["you"] in step.get("answered", []):
        return none | {"answered": True}
    if step.get("choices") is not None:
        return none | {"choices": list(enumerate(label(c) for c in step["choices"])), "mine": True}
    return none | {"free": True, "mine": True}


def answer_from_form(view: dict, form):
    step = view.get("step") or {}
    try:
        if "choice" in form:
            return step["choices"][int(form["choice"])]
        if step.get("type") == "dice":
            return [int(form[f"die{i}"]) for i in range(step["count"])]
        return json.loads(form.get("answer", ""))
    except (KeyError, IndexError, TypeError, ValueError):
        raise Invalid("answer: choose one of the choices (or type the answer as JSON)") from None


# ---------------------------------------------------------------- an account
def account_games(aid: str) -> list[dict]:
    out = []
    for gid in games().accounts.games(aid):
        try:
            state = games().views.public_state(gid)
        except NotFound:  # expired
            continue
        out.append({"id": gid, "title": boards.title(state), "status": state["status"], "phase": state["phase"]})
    return out
