"""Game end over HTTP: draw and concession votes (secret, unanimous, lapsing), civil-disorder votes,
the last year, the director's hand, a solo from a set position, the result object and its scores."""
from __future__ import annotations

from fractions import Fraction

import pytest

from tests.service.gamekit import LONG, POWERS, SOLO_START, created_game, finished, new_game, propose, vote

HOME = {"AUSTRIA": 3, "ENGLAND": 3, "FRANCE": 3, "GERMANY": 3, "ITALY": 3, "RUSSIA": 4, "TURKEY": 3}


def create(api, **settings) -> dict:
    resp = api.post("/v1/games", json={"assignment": "chosen", "deadlines": LONG, **settings})
    assert resp.status_code == 201, resp.text
    return resp.json()


def test_dias_draw_passes_when_unanimous_and_votes_stay_secret(api, redis_client):
    game = new_game(api)
    made = propose(game, "FRANCE", "draw")
    assert made.status_code == 201, made.text
    proposal = made.json()
    assert proposal["members"] == sorted(POWERS) and proposal["status"] == "open"
    assert "proposed_by" not in proposal and "proposed_at" not in proposal

    for power in POWERS[:-1]:
        if power != "FRANCE":
            assert vote(game, proposal["id"], power, "yes").json()["status"] == "open"
    # another player sees the terms and its own (missing) ballot, never who proposed or how anyone voted
    seen = api.get(f"{game.path}/proposals", token=game.tokens["TURKEY"]).json()["proposals"]
    assert seen == [{"id": proposal["id"], "kind": "draw", "members": sorted(POWERS), "to": None,
                     "phase": "S1901M", "status": "open", "your_votes": {}}]
    public = api.get(f"{game.path}/proposals").json()["proposals"][0]
    assert set(public) == {"id", "kind", "members", "to", "phase", "status"}

    last = vote(game, proposal["id"], "TURKEY", "yes")
    assert last.json()["status"] == "passed"
    state = game.state()
    assert state["status"] == "finished" and state["ended_by"] == "vote" and state["deadline"] is None
    result = api.get(f"{game.path}/result").json()
    assert result["ended_by"] == "vote" and result["phase"] == "S1901M"
    assert result["result"] == {"centers": HOME, "end": "draw", "draw_members": sorted(POWERS),
                                "eliminated_year": {}, "year": 1901}
    # the result is in the spec's format: the stateless scorer takes it as it is
    direct = api.post("/v1/scoring/dss", json=result["result"]).json()
    assert api.get(f"{game.path}/scores/dss").json()["exact"] == direct["exact"] == {p: "100/7" for p in POWERS}
    # the votes never became public, and the ballots of a finished game are still only counted, not shown
    assert all(set(p) == {"id", "kind", "members", "to", "phase", "status"}
               for p in api.get(f"{game.path}/proposals").json()["proposals"])
    assert vote(game, proposal["id"], "FRANCE", "no").status_code == 409


def test_a_no_vote_blocks_and_the_proposal_lapses_at_adjudication_recorded_for_the_director(api):
    game = new_game(api)
    first = propose(game, "ENGLAND", "concession", to="GERMANY").json()
    assert first["to"] == "GERMANY" and first["members"] is None
    for power in POWERS:
        if power not in ("ENGLAND", "ITALY"):
            vote(game, first["id"], power, "yes")
    assert vote(game, first["id"], "ITALY", "no").json()["status"] == "open"
    mine = api.get(f"{game.path}/proposals", token=game.tokens["ITALY"]).json()["proposals"][0]
    assert mine["your_votes"] == {"ITALY": "no"}
    game.director_action("adjudicate")
    game.wait_phase("F1901M")

    director = api.get(f"{game.path}/proposals", token=game.director).json()["proposals"]
    assert len(director) == 1
    assert director[0]["status"] == "lapsed" and director[0]["proposed_by"] == "ENGLAND"
    assert director[0]["proposed_at"] and director[0]["closed_at"]
    assert "S1901M was adjudicated" in director[0]["closed_because"]
    assert "yes" not in str(director) and "no" not in {v for p in director for v in p.values() if isinstance(v, str)}
    assert vote(game, first["id"], "ITALY", "yes").status_code == 409
    assert game.state()["status"] == "open"


def test_concession_ends_the_game_and_scores_as_a_solo_by_that_power(api):
    game = new_game(api)
    proposal = propose(game, "AUSTRIA", "concession", to="RUSSIA").json()
    statuses = [vote(game, proposal["id"], p, "yes").json()["status"] for p in POWERS if p != "AUSTRIA"]
    assert statuses == ["open"] * 5 + ["passed"]
    result = api.get(f"{game.path}/result").json()["result"]
    assert result == {"centers": HOME, "end": "concession", "conceded_to": "RUSSIA", "draw_members": [],
                      "eliminated_year": {}, "year": 1901}
    for system, winner_points in [("dss", 100), ("carnage", 28034), ("world_classic", 420), ("bangkok", 41)]:
        scores = api.get(f"{game.path}/scores/{system}").json()["scores"]
        assert scores["RUSSIA"] == winner_points, system
    # PPSC reads the conceded-to power's own count (below 18): every survivor pro rata
    ppsc = api.get(f"{game.path}/scores/ppsc").json()["exact"]
    assert ppsc == {p: str(Fraction(100 * c, 22)) for p, c in HOME.items()}


def test_named_draws_only_where_the_game_allows_them(api):
    plain = new_game(api)
    refused = propose(plain, "FRANCE", "draw", members=["FRANCE", "GERMANY"])
    assert refused.status_code == 422 and "DIAS" in refused.json()["detail"]

    created = create(api, draw_subsets=True)
    game = created_game(api, created)
    bad = propose(game, "FRANCE", "draw", members=["FRANCE"])
    assert bad.status_code == 422 and "at least two" in bad.json()["detail"]
    proposal = propose(game, "FRANCE", "draw", members=["FRANCE", "GERMANY", "ITALY"]).json()
    for power in POWERS:
        if power != "FRANCE":
            vote(game, proposal["id"], power, "yes")
    result = api.get(f"{game.path}/result").json()["result"]
    assert result["end"] == "draw" and result["draw_members"] == ["FRANCE", "GERMANY", "ITALY"]
    dss = api.get(f"{game.path}/scores/dss").json()["exact"]
    assert dss == {p: ("100/3" if p in ("FRANCE", "GERMANY", "ITALY") else "0") for p in POWERS}


@pytest.mark.parametrize("cd_vote, passes", [("yes", True), ("no", False)])
def test_civil_disorder_powers_vote_as_the_game_says(api, cd_vote, passes):
    created = create(api, civil_disorder_vote=cd_vote)
    game = created_game(api, created, powers=["FRANCE", "GERMANY"])
    assert game.director_action("start").status_code == 200
    proposal = propose(game, "FRANCE", "draw").json()
    assert vote(game, proposal["id"], "GERMANY", "yes").json()["status"] == ("passed" if passes else "open")
    assert game.state()["status"] == ("finished" if passes else "open")


def test_the_last_year_ends_the_game_after_its_winter_with_the_centre_count(api):
    game = new_game(api, last_year=1901)
    assert game.state()["last_year"] == 1901
    # France and Italy take Spain and Tunis in 1901: builds in W1901A, then the end
    game.submit("FRANCE", ["A MAR - SPA"])
    game.submit("ITALY", ["F NAP - ION"])
    game.director_action("adjudicate")
    game.wait_phase("F1901M")
    game.submit("ITALY", ["F ION - TUN"])
    game.director_action("adjudicate")
    game.wait_phase("W1901A")
    game.director_action("adjudicate")
    state = finished(game)
    assert state["phase"] == "S1902M" and state["ended_by"] == "last_year"
    result = api.get(f"{game.path}/result").json()["result"]
    assert result == {"centers": HOME | {"FRANCE": 4, "ITALY": 4}, "end": "timeout", "draw_members": [],
                      "eliminated_year": {}, "year": 1901}
    assert [h["phase"] for h in game.history()] == ["S1901M", "F1901M", "W1901A"]


def test_the_director_sets_the_last_year_and_ends_a_game_by_hand(api):
    game = new_game(api)
    assert api.put(f"{game.path}/last-year", json={"year": 1900}, token=game.director).status_code == 422
    assert api.put(f"{game.path}/last-year", json={"year": 1903}).status_code == 401
    assert api.put(f"{game.path}/last-year", json={"year": 1903}, token=game.tokens["FRANCE"]).status_code == 403
    assert api.put(f"{game.path}/last-year", json={"year": 1903}, token=game.director).json()["last_year"] == 1903
    assert api.post(f"{game.path}/end", json={"reason": "time"}, token=game.tokens["FRANCE"]).status_code == 403
    game.submit("FRANCE", ["A PAR - BUR"])  # never adjudicated: never shown
    ended = api.post(f"{game.path}/end", json={"reason": "time called at table 3"}, token=game.director)
    assert ended.status_code == 200 and ended.json()["status"] == "finished"
    assert ended.json()["ended_by"] == "director"
    assert api.get(f"{game.path}/result").json()["result"]["end"] == "timeout"
    assert api.post(f"{game.path}/end", token=game.director).status_code == 409
    assert game.history() == []
    audit = api.get(f"{game.path}/audit", token=game.director).json()["entries"]
    assert [a["action"] for a in audit] == ["last_year", "end"]
    assert audit[1]["detail"] == {"reason": "time called at table 3"} and audit[1]["by"] == "director"
    assert api.get(f"{game.path}/audit", token=game.tokens["FRANCE"]).status_code == 403


def test_a_solo_from_a_set_position_and_every_system_scores_it(api):
    created = create(api, start=SOLO_START)
    assert created["game"]["status"] == "forming"
    game = created_game(api, created)
    state = game.state()
    assert state["phase"] == "F1905M" and "ENGLAND" not in state["to_order"]
    game.submit("FRANCE", ["A PIE - VEN"])
    game.director_action("adjudicate")
    state = finished(game)
    assert state["winner"] == "FRANCE" and state["ended_by"] == "solo"
    result = api.get(f"{game.path}/result").json()["result"]
    assert result["end"] == "solo" and result["centers"]["FRANCE"] == 18 and result["centers"]["ITALY"] == 2
    assert result["eliminated_year"] == {"ENGLAND": 1904, "GERMANY": 1904} and result["year"] == 1905
    for system in ["dss", "sum_of_squares", "ppsc", "carnage", "cdiplo100", "tribute", "opentribute",
                   "world_classic", "bangkok"]:
        got = api.get(f"{game.path}/scores/{system}").json()
        assert got["exact"] == api.post(f"/v1/scoring/{system}", json=result).json()["exact"]
    assert api.get(f"{game.path}/scores/dss").json()["scores"]["FRANCE"] == 100


def test_bad_requests_are_clear(api):
    game = new_game(api)
    assert api.get(f"{game.path}/result").status_code == 409
    assert api.get(f"{game.path}/scores/nope").status_code == 404
    bad = propose(game, "FRANCE", "concession")
    assert bad.status_code == 422 and "body.to" in bad.json()["detail"]
    assert propose(game, "FRANCE", "peace").status_code == 422
    other = api.post(f"{game.path}/proposals", json={"power": "GERMANY", "kind": "draw"}, token=game.tokens["FRANCE"])
    assert other.status_code == 403
    assert vote(game, "nosuch", "FRANCE", "yes").status_code == 404
    proposal = propose(game, "FRANCE", "draw").json()
    assert vote(game, proposal["id"], "GERMANY", "maybe").status_code == 422
    assert vote(game, proposal["id"], "GERMANY", "yes", token=game.tokens["FRANCE"]).status_code == 403
    assert api.post("/v1/games", json={"start": {"phase": "F1905M", "units": {"FRANCE": ["A XYZ"]},
                                                 "centers": {}}}).status_code == 422


def test_a_game_whose_players_have_no_unit_left_ends_instead_of_running_on_alone(api):
    """Only ENGLAND and GERMANY (no units, no centres) are seated: nothing they can do changes the
    game, so it ends at the next movement phase rather than adjudicating phase after phase by itself."""
    created = create(api, start=SOLO_START)
    game = created_game(api, created, powers=["ENGLAND", "GERMANY"])
    assert game.director_action("start").status_code == 200
    state = finished(game)
    assert state["ended_by"] == "no_player_left" and state["phase"] == "S1906M"
    assert [h["phase"] for h in game.history()] == ["F1905M", "W1905A"]
    assert api.get(f"{game.path}/result").json()["result"]["end"] == "timeout"


def test_a_result_recorded_at_the_table(api):
    """A face-to-face board: the director records the draw the table agreed, or the centres counted
    there, without playing the phases on the service; a result that cannot be is refused."""
    game = new_game(api)
    drawn = api.post(f"{game.path}/end", token=game.director,
                     json={"reason": "table 3", "result": {"end": "draw", "members": ["FRANCE", "ENGLAND"]}})
    assert drawn.status_code == 200, drawn.text
    result = api.get(f"{game.path}/result").json()["result"]
    assert result["end"] == "draw" and result["draw_members"] == ["ENGLAND", "FRANCE"]
    counted = new_game(api)
    centers = {"FRANCE": 18, "ENGLAND": 6, "GERMANY": 10}
    solo = api.post(f"{counted.path}/end", token=counted.director,
                    json={"result": {"end": "solo", "winner": "FRANCE", "centers": centers}})
    assert solo.status_code == 200, solo.text
    assert solo.json()["winner"] == "FRANCE"
    assert api.get(f"{counted.path}/result").json()["result"]["centers"]["FRANCE"] == 18
    refused = new_game(api)
    no_solo = api.post(f"{refused.path}/end", token=refused.director,
                       json={"result": {"end": "solo", "winner": "FRANCE"}})  # 5 centres on the board
    assert no_solo.status_code == 422 and "centers" in no_solo.json()["detail"]
    missing = api.post(f"{refused.path}/end", token=refused.director, json={"result": {"end": "draw"}})
    assert missing.status_code == 422 and "members" in missing.text
    assert refused.state()["status"] == "open"


def test_the_director_types_in_paper_orders(api):
    game = new_game(api)
    typed = game.submit("FRANCE", ["A PAR - BUR", "A MAR S A PAR - BUR", "F BRE - MAO"], token=game.director)
    assert typed.status_code == 200, typed.text
    assert game.state()["submitted"] == ["FRANCE"]
    audit = api.get(f"{game.path}/audit", token=game.director).json()["entries"]
    assert audit[-1]["action"] == "orders_entered" and audit[-1]["detail"] == {"power": "FRANCE", "phase": "S1901M",
                                                                                "orders": 3}
    assert "BUR" not in str(audit[-1])
    other = game.submit("FRANCE", ["A PAR H"], token=game.tokens["ENGLAND"])
    assert other.status_code == 403
