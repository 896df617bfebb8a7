"""The bot in the service (docs/bots.md, "In the service"): a missed deadline ordered by the bot, a
seat handed to the bot and taken over, games created with bots (a whole game of bots to its end),
their votes, and the stateless endpoint.

The service runs in this process on a stack of its own, whose bot searches little (the budgets
below), so that a whole game of bots takes a moment."""
from __future__ import annotations

import pytest

from adjudicator.diplomacy import bot_orders, check_orders, initial_position
from tests.service.gamekit import LONG, POWERS, created_game, new_game, propose
from tests.service.inprocess import InProcessApi, InProcessStack
from tests.service.test_accounts import new_account
from workers.core import keys
from workers.core.settings import Settings
from workers.core.store import new_id

DEADLINE_BUDGET, BUDGET = 8, 12
AHEAD = Settings().bot_ahead  # seconds before the deadline the bot's orders are computed for powers without


@pytest.fixture(scope="module")
def inproc(redis_url):
    stack = InProcessStack(redis_url, BOT_DEADLINE_BUDGET=str(DEADLINE_BUDGET), BOT_BUDGET=str(BUDGET))
    yield stack
    stack.close()


@pytest.fixture(scope="module")
def api(inproc):
    return InProcessApi(inproc)


def prepared(inproc, gid: str, seq: int) -> set[str]:
    """The powers whose orders the bot has computed ahead in phase ``seq`` (kept aside, not as orders)."""
    return set(inproc.store.r.hkeys(keys.bot_orders(gid, seq)))


def game_position(phase_entry: dict) -> dict:
    """The position of a history entry as the bot reads it."""
    return {"variant": "standard", **phase_entry["position"], "phase": phase_entry["phase"]}


def all_valid(entry: dict) -> bool:
    return all(r["outcome"] != "invalid" for r in entry["results"])


def test_a_missed_deadline_is_ordered_by_the_bot_and_still_counts_as_missed(api, inproc):
    created = api.post("/v1/games", json={"assignment": "chosen", "deadlines": LONG, "missed_orders": "bot",
                                          "grace": 600}).json()
    gid = created["game"]["id"]
    account, account_token = new_account(api, "Late France")
    _other, other_token = new_account(api, "England")  # a record counts in a game of two accounts or more
    tokens = {}
    for power in POWERS:
        joined = api.post(f"/v1/games/{gid}/players", json={"name": power.title(), "power": power},
                          token={"FRANCE": account_token, "ENGLAND": other_token}.get(power))
        tokens[power] = joined.json()["token"]
    for power in POWERS:
        if power != "FRANCE":
            assert api.put(f"/v1/games/{gid}/orders/{power}", json={"orders": []},
                           token=tokens[power]).status_code == 200
    # BOT_AHEAD (600 s) before the deadline, the bot's orders for FRANCE, still without orders, are
    # computed by a job behind the deadlines, with the full budget, and kept aside
    inproc.advance(LONG["first_movement"] - AHEAD - 1)
    assert prepared(inproc, gid, 1) == set()
    inproc.advance(2)
    assert prepared(inproc, gid, 1) == {"FRANCE"}
    state = api.get(f"/v1/games/{gid}").json()
    assert state["submitted"] == [p for p in POWERS if p != "FRANCE"]  # as the bot's, not as FRANCE's orders
    inproc.advance(AHEAD)  # the deadline: FRANCE is late, its grace period starts
    state = api.get(f"/v1/games/{gid}").json()
    assert state["phase"] == "S1901M" and state["late"] == ["FRANCE"] and state["missed_orders"] == "bot"
    inproc.advance(601)  # the grace period is over: the bot orders FRANCE for this phase
    state = api.get(f"/v1/games/{gid}").json()
    assert state["phase"] == "F1901M" and state["bots"] == []  # FRANCE's player keeps the seat
    assert next(s for s in state["seats"] if s["power"] == "FRANCE") == {
        "power": "FRANCE", "player": "France", "open": False, "bot": False, "since": state["seats"][2]["since"]}
    [entry] = api.get(f"/v1/games/{gid}/history").json()["phases"]
    assert entry["bots"] == ["FRANCE"] and entry["closed_by"].startswith("deadline")
    # the orders computed ahead: seeded by (game, phase number, power), with the full budget, not the deadline's
    expected = bot_orders(game_position(entry), "FRANCE", seed=f"{gid}:1:FRANCE", budget=BUDGET)
    assert entry["orders"]["FRANCE"] == expected and len(expected) == 3 and all_valid(entry)
    assert prepared(inproc, gid, 1) == set()  # gone with the phase
    assert all(entry["orders"][p] == [] for p in POWERS if p != "FRANCE")  # the others' own: none
    record = api.get(f"/v1/accounts/{account['id']}").json()["record"]
    assert (record["phases_due"], record["phases_on_time"]) == (1, 0)  # the miss counts
    export = api.get(f"/v1/games/{gid}/export").json()
    assert export["phases"][0]["bots"] == ["FRANCE"]
    # the next phase: FRANCE's player orders again; nobody is ordered by the bot
    assert api.put(f"/v1/games/{gid}/orders/FRANCE", json={"orders": []}, token=tokens["FRANCE"]).status_code == 200
    for power in POWERS:
        assert api.put(f"/v1/games/{gid}/ready", json={"ready": True}, token=tokens[power]).status_code == 200
    assert api.get(f"/v1/games/{gid}/history").json()["phases"][1]["bots"] is None


def test_a_late_submission_beats_the_orders_computed_ahead_and_a_rollback_never_reuses_them(api, inproc):
    """The bot's orders computed ahead are a candidate: a power that sends its own after them is
    adjudicated with its own.  They belong to the phase number they were computed in, which a rollback
    never opens again: the phase it reopens, at the same position, gets the bot's orders of its own."""
    game = new_game(api, missed_orders="bot")
    for power in POWERS[3:]:
        assert game.submit(power, []).status_code == 200
    inproc.advance(LONG["first_movement"] - AHEAD + 1)
    assert prepared(inproc, game.id, 1) == {"AUSTRIA", "ENGLAND", "FRANCE"}
    assert game.submit("FRANCE", ["A PAR - PIC"]).status_code == 200  # after the bot's orders: FRANCE's own win
    assert game.submit("ENGLAND", []).status_code == 200
    inproc.advance(AHEAD)
    first = game.history()[0]
    assert first["bots"] == ["AUSTRIA"] and first["orders"]["FRANCE"] == ["A PAR - PIC"]
    assert first["orders"]["ENGLAND"] == [] and "ENGLAND" not in first["bots"]
    assert first["orders"]["AUSTRIA"] == bot_orders(game_position(first), "AUSTRIA", seed=f"{game.id}:1:AUSTRIA",
                                                    budget=BUDGET)

    inproc.advance(LONG["movement"] - AHEAD + 1)
    assert prepared(inproc, game.id, 2) == set(POWERS)  # F1901M: nobody has orders yet

    # the director rolls back to S1901M: phase 3, at S1901M's position, with nothing computed ahead
    rolled = api.post(f"{game.path}/rollback", json={"seq": 1, "reason": "replay"}, token=game.director)
    assert rolled.status_code == 200, rolled.text
    assert game.state()["seq"] == 3 and game.state()["phase"] == "S1901M"
    assert inproc.store.r.keys(keys.bot_orders(game.id, "*")) == []
    for power in POWERS[1:]:
        assert game.submit(power, []).status_code == 200
    inproc.advance(LONG["movement"] + 1)  # the deadline's job runs before the job that would compute ahead
    again = game.history()[-1]
    assert again["seq"] == 3 and again["bots"] == ["AUSTRIA"] and again["closed_by"].startswith("deadline")
    assert again["orders"]["AUSTRIA"] == bot_orders(game_position(again), "AUSTRIA", seed=f"{game.id}:3:AUSTRIA",
                                                    budget=DEADLINE_BUDGET)


def test_a_seat_handed_to_the_bot_plays_until_it_is_taken_over(api, inproc):
    game = new_game(api)
    path = game.path
    assert api.post(f"{path}/seats/TURKEY/bot", token=game.tokens["FRANCE"]).status_code == 403
    assert game.submit("TURKEY", ["A CON - BUL"]).status_code == 200  # dropped: the bot orders TURKEY now
    handed = api.post(f"{path}/seats/TURKEY/bot", token=game.director)
    assert handed.status_code == 200, handed.text
    state = handed.json()
    turkey = next(s for s in state["seats"] if s["power"] == "TURKEY")
    assert turkey["bot"] and turkey["open"] and turkey["player"] is None
    assert state["bots"] == ["TURKEY"] and "TURKEY" in state["to_order"] and "TURKEY" not in state["submitted"]
    assert api.get(f"{path}/orders", token=game.tokens["TURKEY"]).status_code == 401  # its player is gone
    assert api.post(f"{path}/seats/TURKEY/bot", token=game.director).status_code == 409
    listed = api.get("/v1/games?seats=open&limit=100").json()["games"]
    assert game.id in [g["id"] for g in listed]  # anyone may take it over

    # the humans are ready: the phase closes without waiting for the bot, which orders TURKEY
    for power in POWERS[:-1]:
        assert game.ready(power).status_code == 200
    state = game.state()
    assert state["phase"] == "F1901M" and state["bots"] == ["TURKEY"] and state["to_order"] == POWERS
    entry = game.history()[0]
    assert entry["bots"] == ["TURKEY"] and entry["closed_by"] == "every power was ready" and all_valid(entry)
    assert entry["orders"]["TURKEY"] == bot_orders(game_position(entry), "TURKEY", seed=f"{game.id}:1:TURKEY",
                                                   budget=BUDGET)
    assert "The bot plays Turkey" in api.get(f"/games/{game.id}").text
    assert "The bot gave the orders of Turkey." in api.get(f"/games/{game.id}?phase=S1901M").text

    # a takeover ends the bot's play at once: the open phase now waits for the new player
    taken = api.post(f"{path}/players", json={"name": "New Turk", "power": "TURKEY"})
    assert taken.status_code == 201, taken.text
    state = game.state()
    assert state["bots"] == [] and not next(s for s in state["seats"] if s["power"] == "TURKEY")["bot"]
    for power in POWERS[:-1]:
        assert game.ready(power).status_code == 200
    assert game.state()["phase"] == "F1901M"  # waits for TURKEY's new player
    assert api.put(f"{path}/ready", json={"ready": True}, token=taken.json()["token"]).status_code == 200
    assert game.state()["phase"] == "W1901A"
    assert game.history()[1]["bots"] is None
    audit = api.get(f"{path}/audit", token=game.director).json()["entries"]
    assert [e["detail"]["cause"] for e in audit if e["action"] == "seat_opened"] == ["bot"]


def test_a_game_of_bots_plays_to_its_end(api, inproc):
    created = api.post("/v1/games", json={"bots": "fill", "last_year": 1902, "deadlines": {
        "first_movement": 60, "movement": 60, "retreat": 30, "adjustment": 30}})
    assert created.status_code == 201, created.text
    gid, director = created.json()["game"]["id"], created.json()["director_token"]
    assert api.post(f"/v1/games/{gid}/start", token=director).status_code == 200
    state = api.get(f"/v1/games/{gid}").json()  # only the bot has orders to give: phase after phase at once
    assert state["status"] == "finished" and state["ended_by"] == "last_year", state
    assert state["bots"] == POWERS and all(s["bot"] for s in state["seats"])
    phases = api.get(f"/v1/games/{gid}/history").json()["phases"]
    assert [p["phase"] for p in phases][:3] == ["S1901M", "F1901M", "W1901A"] and phases[-1]["phase"] == "W1902A"
    for entry in phases:
        position = game_position(entry)
        assert all_valid(entry)
        assert (entry["bots"] or []) == sorted(entry["orders"])
        for power, orders in entry["orders"].items():
            assert all(r["valid"] for r in check_orders(position, power, orders))
    assert sum(len(cs) for cs in phases[-1]["position"]["centers"].values()) > 22  # they took some centres


def test_bots_at_creation_take_their_seats_and_vote_for_draws_that_include_them(api, inproc):
    created = api.post("/v1/games", json={"assignment": "chosen", "deadlines": LONG, "bots": ["england", "Germany"],
                                          "draw_subsets": True}).json()
    gid = created["game"]["id"]
    refused = api.post(f"/v1/games/{gid}/players", json={"name": "E", "power": "ENGLAND"})
    assert refused.status_code == 409 and "bot" in refused.json()["detail"]
    game = created_game(api, created, [p for p in POWERS if p not in ("ENGLAND", "GERMANY")])
    state = game.state()  # the five seats left to players are taken: it starts
    assert state["status"] == "open" and state["bots"] == ["ENGLAND", "GERMANY"]
    assert state["to_order"] == POWERS and state["players"] and len(state["players"]) == 5

    # a draw without GERMANY: its bot votes no; a draw of all the survivors passes with the humans' votes
    without = propose(game, "FRANCE", "draw", members=[p for p in POWERS if p != "GERMANY"]).json()
    for power in ("AUSTRIA", "ITALY", "RUSSIA", "TURKEY"):
        game.api.put(f"{game.path}/proposals/{without['id']}/votes/{power}", json={"vote": "yes"},
                     token=game.tokens[power])
    assert game.state()["status"] == "open"
    everyone = propose(game, "FRANCE", "draw").json()
    for power in ("AUSTRIA", "ITALY", "RUSSIA"):
        game.api.put(f"{game.path}/proposals/{everyone['id']}/votes/{power}", json={"vote": "yes"},
                     token=game.tokens[power])
    assert game.state()["status"] == "open"
    game.api.put(f"{game.path}/proposals/{everyone['id']}/votes/TURKEY", json={"vote": "yes"},
                 token=game.tokens["TURKEY"])
    state = game.state()
    assert state["status"] == "finished" and state["ended_by"] == "vote"


def test_fill_starts_with_the_humans_it_has(api, inproc):
    created = api.post("/v1/games", json={"assignment": "chosen", "deadlines": LONG, "bots": "fill"}).json()
    game = created_game(api, created, ["FRANCE"])
    assert game.state()["status"] == "forming"
    assert api.post(f"{game.path}/start", token=game.director).status_code == 200
    state = game.state()
    assert state["bots"] == [p for p in POWERS if p != "FRANCE"] and state["to_order"] == POWERS
    assert game.ready("FRANCE").status_code == 200  # the only human is ready: the phase closes
    entry = game.history()[0]
    assert entry["bots"] == [p for p in POWERS if p != "FRANCE"] and "FRANCE" not in entry["orders"]
    assert all_valid(entry)

    # the bot's orders were computed as the phase opened, with the full budget: its deadline
    # takes them as they are (a deadline computing them would use its own smaller budget)
    assert prepared(inproc, game.id, 2) == set(POWERS) - {"FRANCE"}
    inproc.advance(LONG["movement"] + 1)
    entry = game.history()[1]
    assert entry["closed_by"].startswith("deadline") and entry["bots"] == [p for p in POWERS if p != "FRANCE"]
    position = game_position(entry)
    assert entry["orders"] == {p: bot_orders(position, p, seed=f"{game.id}:2:{p}", budget=BUDGET)
                               for p in POWERS if p != "FRANCE"}


def test_bad_bots_at_creation(api):
    for bots, where in (("all", "bots"), ([], "bots"), (["NARNIA"], "bots"), ([1], "bots")):
        refused = api.post("/v1/games", json={"bots": bots})
        assert refused.status_code == 422 and where in refused.text, refused.text


def test_the_stateless_endpoint(api):
    position = initial_position("standard")
    body = {k: position[k] for k in ("phase", "units", "centers")}
    answer = api.post("/v1/bots/diplomacy/orders", json={**body, "power": "france", "seed": 7})
    assert answer.status_code == 200, answer.text
    orders = answer.json()["orders"]
    assert orders == bot_orders(position, "FRANCE", seed=7, budget=BUDGET) and len(orders) == 3  # BOT_BUDGET
    assert all(r["valid"] for r in check_orders({**position, "variant": "standard"}, "FRANCE", orders))
    again = api.post("/v1/bots/diplomacy/orders", json={**body, "power": "FRANCE", "seed": 7, "orders": {}})
    assert again.json()["orders"] == orders
    build = {"phase": "W1901A", "units": {"FRANCE": ["A PAR"]}, "centers": {"FRANCE": ["PAR", "MAR", "BRE"]}}
    built = api.post("/v1/bots/diplomacy/orders", json={**build, "power": "FRANCE", "seed": "x"}).json()["orders"]
    assert len(built) == 2 and all(o.startswith("BUILD") or " B" in o for o in built), built
    assert api.post("/v1/bots/diplomacy/orders", json={**build, "power": "ITALY"}).json() == {"orders": []}
    for bad, where in (({**body}, "body.power"), ({**body, "power": "NARNIA"}, "body.power"),
                       ({**body, "power": "FRANCE", "variant": "moon"}, "body.variant"),
                       ({**body, "power": "FRANCE", "units": {"FRANCE": ["A XYZ"]}}, "body.units"),
                       ({**body, "power": "FRANCE", "seed": [1]}, "body.seed")):
        refused = api.post("/v1/bots/diplomacy/orders", json=bad)
        assert refused.status_code == 422 and where in refused.json()["detail"], refused.text


def test_the_stateless_endpoint_has_a_quota_and_a_bounded_queue(redis_url, api, monkeypatch):
    """Each answer costs a search: it counts against RATE_LIMIT_BOT (429 with Retry-After), and a process
    computes a few at once, refusing more at once (503 with Retry-After) while its other requests go on."""
    from service import limits
    from service.app import create_app

    position = initial_position("standard")
    body = {**{k: position[k] for k in ("phase", "units", "centers")}, "power": "FRANCE", "seed": 1}
    client = create_app(redis_url, Settings.from_env({"RATE_LIMITS": "on", "RATE_LIMIT_BOT": "2 per minute"})
                        ).test_client()
    client.environ_base["REMOTE_ADDR"] = f"2001:db8::{new_id()[:4]}"
    answers = [client.post("/v1/bots/diplomacy/orders", json=body) for _ in range(3)]
    assert [a.status_code for a in answers] == [200, 200, 429]
    assert answers[-1].get_json()["quota"] == "RATE_LIMIT_BOT" and int(answers[-1].headers["Retry-After"]) > 0

    queue = limits.WorkQueue("bot answers are being computed", running=1, waiting=0)
    monkeypatch.setattr(limits, "BOTS", queue)
    with queue.turn():  # another answer is being computed: no place is left
        busy = api.request("POST", "/v1/bots/diplomacy/orders", json=body)
        assert busy.status_code == 503 and int(busy.headers["Retry-After"]) > 0, busy.text
        assert "bot answers" in busy.json()["detail"]
        assert api.get("/v1/health").status_code == 200
    assert api.post("/v1/bots/diplomacy/orders", json=body).json()["orders"] == bot_orders(position, "FRANCE", seed=1,
                                                                                           budget=BUDGET)
