"""Resolutions end to end (docs/resolutions.md): the service in this process on a real Redis, its
jobs and deadlines run there (tests/service/inprocess.py); a worker killed mid-step on the real stack.

Every response is checked against openapi.yaml by the ``api`` client."""
from __future__ import annotations

import hashlib
import hmac
import json
import signal

import pytest
from jsonschema import Draft202012Validator

from adjudicator.kinds import KINDS
from adjudicator.procedure import Outcome, play
from tests.service.svc_stack import wait_for
from workers.core import keys


def card(card_id, country, value):
    return {"id": card_id, "kind": "INFLUENCE", "country": country, "value": value}


def pile(state, *cards):
    return {"state": state, "cards": list(cards)}


# 1630 TV-06: Tim calls a war vote in ENGLAND; Martin and Simon take part (spec 1630 §8.1).
TV06 = {
    "players": ["Tim", "Martin", "Simon"], "caller": "Tim",
    "displays": {"Tim": {"ENGLAND": pile("DOMINANT", card("Tim-E0", "ENGLAND", 3), card("Tim-E1", "ENGLAND", 2),
                                         card("Tim-E2", "ENGLAND", 2))},
                 "Martin": {"ENGLAND": pile("DOMINANT", card("Martin-E0", "ENGLAND", 5))},
                 "Simon": {"ENGLAND": pile("DOMINANT", card("England 1", "ENGLAND", 1),
                                           card("Simon-E5", "ENGLAND", 5)),
                           "FRANCE": pile("DOMINANT", card("Simon-F0", "FRANCE", 2)),
                           "SWEDEN": pile("DOMINANT", card("Simon-S0", "SWEDEN", 3))}},
    "hands": {"Simon": [card("Simon-E9", "ENGLAND", 1)], "Martin": [card("Martin-F9", "FRANCE", 2)]},
    "countries": {"ENGLAND": {"side": "RED", "army_size": 1, "military_ability": 1, "leader": True},
                  "FRANCE": {"side": "BLUE", "prestige": 3}},
}
WAR_ON_FRANCE = {"agenda": "WAR", "target": "FRANCE"}
# 1630 TV-11: England (army 1, leader) attacks France (army 2, prestige 3).
TV11 = {"attacker": "ENGLAND", "defender": "FRANCE",
        "countries": {"ENGLAND": {"military_ability": 1, "army_size": 1, "leader": True, "prestige": 1},
                      "FRANCE": {"military_ability": 1, "army_size": 2, "prestige": 3}}}


class Resolution:
    def __init__(self, api, created: dict):
        self.api = api
        self.id = created["resolution"]["id"]
        self.director = created["director_token"]
        self.tokens = created["tokens"]
        self.path = f"/v1/resolutions/{self.id}"

    def view(self, who: str | None = None) -> dict:
        token = self.director if who == "director" else self.tokens.get(who) if who else None
        return self.api.get(self.path, token=token).json()

    def answer(self, who: str, step: int, value, **extra):
        token = self.director if who == "director" else self.tokens[who]
        return self.api.post(f"{self.path}/answers", token=token, json={"step": step, "answer": value, **extra})

    def wait(self, condition, what: str, timeout: float = 20) -> dict:
        return wait_for(lambda: (v := self.view("director")) and condition(v) and v, timeout, what)

    def wait_step(self, index: int) -> dict:
        return self.wait(lambda v: v["status"] != "waiting" or v["step"]["index"] >= index, f"step {index}")


def create(api, kind: str, state: dict, **body) -> Resolution:
    resp = api.post("/v1/resolutions", json={"kind": kind, "state": state, **body})
    assert resp.status_code == 201, resp.text
    return Resolution(api, resp.json())


def independent_die(seed: bytes, i: int, j: int, sides: int) -> int:
    """The contract's algorithm, written again here from its text."""
    a = 0
    while True:
        x = int.from_bytes(hmac.new(seed, f"{i}:{j}:{a}".encode(), hashlib.sha256).digest()[:8], "big")
        if x < 2 ** 64 - (2 ** 64 % sides):
            return x % sides + 1
        a += 1


# ---------------------------------------------------------------- kinds and creation
def test_every_procedure_is_a_kind_with_a_json_schema_of_its_state(api):
    kinds = api.get("/v1/resolution-kinds").json()
    assert [k["kind"] for k in kinds] == list(KINDS)
    for kind in kinds:
        Draft202012Validator.check_schema(kind["state_schema"])
        assert kind["state_schema"]["type"] == "object"
    war = next(k for k in kinds if k["kind"] == "1630.war")
    Draft202012Validator(war["state_schema"]).validate(TV11)
    assert list(Draft202012Validator(war["state_schema"]).iter_errors({"attacker": 5}))


def test_unknown_kind_and_invalid_state_are_422_and_store_nothing(api, redis_client):
    before = len(redis_client.keys(keys.resolution("*")))
    resp = api.post("/v1/resolutions", json={"kind": "chess.mate", "state": {}})
    assert resp.status_code == 422 and "1630.vote" in resp.json()["detail"] and "statecraft.conflict" in resp.json()["detail"]
    bad = {**TV11, "countries": {"ENGLAND": {"army_size": -1, "prestige": "high"}}}
    resp = api.post("/v1/resolutions", json={"kind": "1630.war", "state": bad})
    assert resp.status_code == 422
    detail = resp.json()["detail"]
    assert "body.state.countries.ENGLAND.value.army_size" in detail or "state.countries.ENGLAND" in detail, detail
    assert "prestige" in detail
    assert len(redis_client.keys(keys.resolution("*"))) == before


# ---------------------------------------------------------------- dice
def test_director_dice_reach_the_pure_engines_outcome(api):
    res = create(api, "1630.war", TV11, dice="director")
    view = res.view()
    assert view["step"]["type"] == "dice" and view["step"]["details"]["country"] == "ENGLAND"
    assert res.answer("director", 0, [3, 2]).status_code == 200
    done = res.answer("director", 1, [2, 6]).json()
    assert done["status"] == "resolved"
    expected = play(KINDS["1630.war"], TV11, [[3, 2], [2, 6]])[1]
    assert done["outcome"]["result"] == json.loads(json.dumps(dict(expected.result)))
    assert done["outcome"]["result"]["winner"] == "DEFENDER"  # TV-11
    assert [e["by"] for e in done["log"]] == ["director", "director"]


def test_server_dice_are_rolled_by_the_worker_and_check_out_from_the_view(api, tmp_path):
    res = create(api, "1630.war", TV11)
    view = res.wait(lambda v: v["status"] == "resolved", "the server to roll both dice steps")
    assert view["dice"]["source"] == "server" and view["dice"]["seed"]
    seed = bytes.fromhex(view["dice"]["seed"])
    assert hashlib.sha256(seed).hexdigest() == view["dice"]["commitment"]
    for entry in view["log"]:
        assert entry["by"] == "server"
        assert entry["value"] == [independent_die(seed, entry["index"], j, entry["sides"])
                                  for j in range(len(entry["value"]))]
    expected = play(KINDS["1630.war"], TV11, [e["value"] for e in view["log"]])[1]
    assert view["outcome"]["result"] == json.loads(json.dumps(dict(expected.result)))
    # the shipped checker agrees, and catches a forged die
    import subprocess
    import sys
    path = tmp_path / "view.json"
    path.write_text(json.dumps(view))
    ok = subprocess.run([sys.executable, "-m", "adjudicator.serverdice", str(path)], capture_output=True, text=True)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    forged = json.loads(json.dumps(view))
    forged["log"][0]["value"][0] = forged["log"][0]["value"][0] % 6 + 1
    path.write_text(json.dumps(forged))
    bad = subprocess.run([sys.executable, "-m", "adjudicator.serverdice", str(path)], capture_output=True, text=True)
    assert bad.returncode == 1 and "log entry 0" in bad.stdout


def test_the_seed_stays_secret_until_the_end(api):
    res = create(api, "1630.war", TV11, dice="director")
    assert res.view()["dice"]["seed"] is None and res.view("director")["dice"]["seed"] is None
    cancelled = api.post(f"{res.path}/cancel", token=res.director).json()
    assert cancelled["status"] == "cancelled" and cancelled["dice"]["seed"]


# ---------------------------------------------------------------- answers
def vote(api, **body) -> Resolution:
    return create(api, "1630.vote", TV06, participants={p: {"name": p} for p in TV06["players"]},
                  dice="director", **body)


def test_sealed_ballots_and_hands_are_hidden_from_other_tokens(api):
    res = vote(api)
    assert res.answer("Tim", 0, "ENGLAND").status_code == 200
    assert res.answer("Tim", 1, []).status_code == 200
    assert res.answer("Tim", 2, WAR_ON_FRANCE).status_code == 200
    step = res.view("Simon")["step"]
    assert step["type"] == "sealed" and step["question"] == "placement"
    # hands: each player sees only its own; spectators none; the director all
    assert set(res.view("Simon")["state"]["hands"]) == {"Simon"}
    assert set(res.view("Martin")["state"]["hands"]) == {"Martin"}
    assert res.view()["state"]["hands"] == {}
    assert set(res.view("director")["state"]["hands"]) == {"Simon", "Martin"}
    assert "Simon-E9" not in json.dumps(res.view("Martin")) and "Simon-E9" not in json.dumps(res.view("Tim"))
    assert res.answer("Simon", 3, []).status_code == 200
    assert res.answer("Martin", 3, []).status_code == 200
    ballots = res.view("Tim")["step"]
    assert ballots["type"] == "sealed" and ballots["question"] == "ballot" and ballots["index"] == 4
    assert res.answer("Simon", 4, "RED").status_code == 200
    assert res.answer("Simon", 4, "NO_BALLOT").status_code == 422  # 5.4.2: nobody may abstain
    assert res.answer("Simon", 4, "BLUE").status_code == 200  # replaced before the step closes
    assert res.answer("Tim", 4, "RED").status_code == 200
    for who, own in (("Tim", "RED"), ("Martin", None), (None, None)):
        seen = res.view(who)
        assert seen["step"]["answered"] == ["Simon", "Tim"] and len(seen["log"]) == 4, who
        assert seen["step"].get("your_answer") == own, who
        assert '"BLUE"' not in json.dumps(seen["step"].get("your_answer")) and '"Simon": "BLUE"' not in json.dumps(seen)
    assert res.view("Simon")["step"]["your_answer"] == "BLUE"
    done = res.answer("Martin", 4, "RED").json()  # the last part closes the step: all revealed together
    assert done["log"][4]["value"] == {"Tim": "RED", "Martin": "RED", "Simon": "BLUE"}
    assert done["step"]["type"] == "dice"  # the war is fought at once


def test_stale_step_409_retry_200_illegal_422_wrong_participant_403(api):
    res = vote(api)
    assert res.answer("Tim", 0, "ENGLAND").status_code == 200
    retry = res.answer("Tim", 0, "ENGLAND")
    assert retry.status_code == 200 and retry.json()["step"]["index"] == 1
    stale = res.answer("Tim", 0, "FRANCE")
    assert stale.status_code == 409 and stale.json()["open_step"] == 1
    assert res.answer("Tim", 5, []).status_code == 409
    illegal = res.answer("Tim", 1, ["Martin-E0"])
    assert illegal.status_code == 422 and "Martin-E0" in illegal.json()["detail"]
    assert res.answer("Simon", 1, []).status_code == 403
    assert res.answer("director", 1, [], participant="Tim").status_code == 200
    assert api.post(f"{res.path}/answers", json={"step": 2, "answer": WAR_ON_FRANCE}).status_code == 401
    assert api.post(f"{res.path}/answers", token="nope", json={"step": 2, "answer": 1}).status_code == 401
    assert res.view("director")["log"][1]["by"] == "director"


def test_defaults_are_applied_at_the_deadline(api):
    res = create(api, "1630.vote", TV06, participants={p: {} for p in TV06["players"]}, dice="director",
                 deadlines={"default": 3600, "ballot": 1})
    for index, value in enumerate(["ENGLAND", [], WAR_ON_FRANCE, {"Martin": [], "Simon": []}]):
        assert res.answer("director", index, value).status_code == 200  # the director answers a sealed step whole
    assert res.answer("Simon", 4, "RED").status_code == 200
    view = res.wait(lambda v: len(v["log"]) >= 5, "the ballot deadline", timeout=15)
    entry = view["log"][4]
    assert entry["type"] == "sealed" and entry["sources"] == {"Tim": "default", "Martin": "default",
                                                               "Simon": "participant"}
    assert entry["value"] == {"Tim": "NO_BALLOT", "Martin": "NO_BALLOT", "Simon": "RED"}
    assert entry["by"] == "default"
    # 5.7.5: the missed war ballots count for the status quo (peace), 12 against 6: no war
    assert view["status"] == "resolved" and view["outcome"]["result"]["winner"] == "BLUE"
    assert sorted(view["outcome"]["result"]["missed"]) == ["Martin", "Tim"]



def test_director_clock_pause_extend_resume(api):
    res = create(api, "1630.vote", TV06, participants={"Tim": {}}, deadlines={"default": 600})
    deadline = res.view()["step"]["deadline"]
    extended = api.post(f"{res.path}/extend", token=res.director, json={"seconds": 60}).json()
    assert extended["step"]["deadline"] > deadline
    assert api.post(f"{res.path}/extend", token=res.tokens["Tim"], json={"seconds": 60}).status_code == 403
    paused = api.post(f"{res.path}/pause", token=res.director).json()
    assert paused["paused"] and paused["step"]["deadline"] is None and paused["step"]["remaining_seconds"] > 600
    assert api.post(f"{res.path}/pause", token=res.director).status_code == 409
    resumed = api.post(f"{res.path}/resume", token=res.director).json()
    assert not resumed["paused"] and resumed["step"]["deadline"]


def test_a_changed_past_step_halts_the_resolution(api, redis_client):
    res = vote(api)
    res.answer("Tim", 0, "ENGLAND")
    log = json.loads(redis_client.hget(keys.resolution(res.id), "log"))
    log[0]["shown"]["choices"] = ["ENGLAND", "ATLANTIS"]  # as if an older engine had shown another step
    redis_client.hset(keys.resolution(res.id), "log", json.dumps(log))
    resp = res.answer("Tim", 1, [])
    assert resp.status_code == 409 and "would change step 0" in resp.json()["detail"]
    view = res.view("director")
    assert view["status"] == "halted" and "rather than rewriting" in view["message"]
    assert len(view["log"]) == 1


def test_a_worker_killed_while_advancing_the_step_is_taken_once(live_api, stack):
    """Real processes: the worker is killed (SIGKILL) in the middle of the step."""
    stack.stop("worker")
    stack.start("worker", ADJ_FAULT_STALL_SECONDS="8")
    try:
        res = create(live_api, "1630.war", TV11)
        wait_for(lambda: any(j for j in stack_jobs(stack, res.id)), 30, "the worker to take the job")
        stack.stop("worker", signal.SIGKILL)
        assert res.view()["status"] == "waiting" and res.view()["log"] == []
    finally:
        stack.start("worker")
    view = res.wait(lambda v: v["status"] == "resolved", "the re-run to resolve", timeout=40)
    assert [e["index"] for e in view["log"]] == [0, 1]
    seed = bytes.fromhex(view["dice"]["seed"])
    assert view["log"][0]["value"] == [independent_die(seed, 0, j, 6) for j in range(2)]


def stack_jobs(stack, rid):
    import redis
    from rq.registry import StartedJobRegistry
    connection = redis.Redis.from_url(stack.redis_url)
    started = StartedJobRegistry(keys.QUEUE, connection=connection).get_job_ids()
    return [j for j in started if rid in j]


# ---------------------------------------------------------------- every kind
try:
    from tests.service.resolution_cases import CASES, answer_for
except ImportError:  # the cases module is being written
    CASES, answer_for = {}, None


@pytest.mark.parametrize("kind", sorted(CASES))
def test_every_kind_runs_to_the_pure_engines_outcome_with_director_dice(api, kind):
    """The director enters every die and answers every step (bots' steps are the service's);
    the outcome is the pure engine's on the same log."""
    from adjudicator.procedure import next_step

    vector, state = CASES[kind]
    procedure = KINDS[kind]
    res = create(api, kind, state, dice="director")
    view = res.view("director")
    for _ in range(200):
        if view["status"] != "waiting":
            break
        index = view["step"]["index"]
        if view["step"]["waiting_for"].startswith("the service"):
            view = res.wait_step(index + 1)
            continue
        step = next_step(procedure, state, [e["value"] for e in view["log"]])
        resp = res.answer("director", index, json.loads(json.dumps(answer_for(kind, step))))
        assert resp.status_code == 200, resp.text
        view = resp.json()
    assert view["status"] == "resolved", (kind, vector, view["step"])
    assert {e["by"] for e in view["log"]} <= {"director", "bot"}
    expected = next_step(procedure, state, [e["value"] for e in view["log"]])
    assert isinstance(expected, Outcome)
    assert view["outcome"]["result"] == json.loads(json.dumps(dict(expected.result))), vector
    assert view["outcome"]["state"] == json.loads(json.dumps(dict(expected.state))), vector


def test_a_bots_part_of_a_sealed_step_is_given_by_the_service(api):
    """statecraft.agenda (TV-22's bot card) with a bot USA: its plan is in from the start
    (hidden from the EU), and the EU's plan closes the step."""
    from adjudicator.procedure import next_step

    vector, state = CASES["statecraft.agenda"]
    state = json.loads(json.dumps(state))
    state["powers"]["USA"] |= {"is_bot": True, "action_table": [["influence", "bribe"], ["bribe", "debate", "influence"]]}
    state["solo_agenda_row"] = [{"actions": ["spy"], "left": "blue", "right": "green"},
                                {"actions": ["bribe"], "left": "green", "right": "red"}]
    res = create(api, "statecraft.agenda", state, participants={"EU": {}, "USA": {"bot": True}})
    assert '"USA"' not in json.dumps(res.view("EU")["step"].get("your_answer"))
    step = res.view("EU")["step"]
    assert step["type"] == "sealed" and step["answered"] == ["USA"] and step["your_answer"] is None
    eu_plan = answer_for("statecraft.agenda", next_step(KINDS["statecraft.agenda"], state, []).decision_for("EU"))
    done = res.answer("EU", 0, eu_plan).json()
    entry = done["log"][0]
    assert entry["sources"] == {"EU": "participant", "USA": "bot"} and done["status"] == "resolved"


def test_a_private_decisions_choices_and_default_are_only_for_its_participant(api):
    vector, state = CASES["1630.vote"]
    caller = state["caller"]
    others = [p for p in state["players"] if p != caller]
    res = create(api, "1630.vote", state, participants={p: {} for p in state["players"]})
    mine = res.view(caller)["step"]
    assert mine["question"] == "country" and mine["choices"] and not mine["details_hidden"]
    for who in (others[0], None):
        seen = res.view(who)["step"]
        assert seen["details_hidden"] and seen["choices"] is None and seen["default"] is None and seen["details"] == {}
