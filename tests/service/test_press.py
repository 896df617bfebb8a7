"""Press over the API, as docs/press.md says: the game's press rules (every
preset, every field, the director's audited change), sending and reading filtered per token, every
way a message is refused, and where press lives (rollback, expiry)."""
from __future__ import annotations

import pytest

from tests.service.gamekit import LONG, POWERS, RETREAT_AHEAD, SOLO_START, created_game, new_game
from workers.core import keys

FULL = {"private": True, "public": True, "grey": "no", "fake_broadcast": False, "phases": "all",
        "director_reads": False}


def send(game, sender, to, body="Shall we?", token=None, **extra):
    return game.api.post(f"{game.path}/press", json={"to": to, "body": body, **extra},
                         token=game.tokens[sender] if token is None else token)


def read(game, power=None, token=None, **params):
    resp = game.api.get(f"{game.path}/press", token=token or game.tokens[power], params=params)
    assert resp.status_code == 200, resp.text
    return resp.json()["messages"]


def sent(game, sender, to, body="Shall we?", **extra) -> dict:
    resp = send(game, sender, to, body, **extra)
    assert resp.status_code == 201, resp.text
    return resp.json()["message"]


def refused(game, sender, to, rule: str, status: int = 422, **extra) -> None:
    resp = send(game, sender, to, **extra)
    assert resp.status_code == status, resp.text
    assert rule in resp.json()["detail"], resp.json()["detail"]


# ---------------------------------------------------------------- the rules
@pytest.mark.parametrize("preset, rules", [
    ("full", FULL), ("public", FULL | {"private": False}), ("none", FULL | {"private": False, "public": False}),
    ("grey", FULL | {"grey": "only"}), ("rulebook", FULL | {"phases": "movement"})])
def test_each_preset_is_its_object_in_the_game_view(api, preset, rules):
    created = api.post("/v1/games", json={"press": preset})
    assert created.status_code == 201, created.text
    assert created.json()["game"]["press"] == rules
    assert api.get(f"/v1/games/{created.json()['game']['id']}").json()["press"] == rules


def test_the_object_form_fills_in_the_defaults_and_is_checked(api):
    assert api.post("/v1/games", json={}).json()["game"]["press"] == FULL
    partial = api.post("/v1/games", json={"press": {"grey": "allowed", "director_reads": True}}).json()["game"]
    assert partial["press"] == FULL | {"grey": "allowed", "director_reads": True}
    whole = FULL | {"private": False, "grey": "only", "fake_broadcast": True, "phases": "movement"}
    assert api.post("/v1/games", json={"press": whole}).json()["game"]["press"] == whole
    for bad in ("gunboat", {"grey": "yes"}, {"loud": True}, {"private": 1}, 3):
        resp = api.post("/v1/games", json={"press": bad})
        assert resp.status_code == 422 and "body.press" in resp.json()["detail"], (bad, resp.text)


def test_the_director_changes_the_rules_and_the_audit_log_says_so(api):
    game = new_game(api)
    assert sent(game, "FRANCE", ["GERMANY"])
    path = f"{game.path}/press/rules"
    assert api.put(path, json={"press": "none"}, token=game.tokens["FRANCE"]).status_code == 403
    assert api.put(path, json={"press": "none"}).status_code == 401
    changed = api.put(path, json={"press": "none"}, token=game.director)
    assert changed.status_code == 200 and changed.json()["press"] == FULL | {"private": False, "public": False}
    refused(game, "FRANCE", ["GERMANY"], "private: false")
    refused(game, "FRANCE", "all", "public: false")
    entry = api.get(f"{game.path}/audit", token=game.director).json()["entries"][-1]
    assert entry["action"] == "press_rules" and entry["detail"]["was"] == FULL
    assert entry["detail"]["press"] == FULL | {"private": False, "public": False}
    # the change is the director's alone, audited, and it applies at once
    api.put(path, json={"press": {"fake_broadcast": True}}, token=game.director)
    assert sent(game, "FRANCE", ["GERMANY"], fake_broadcast=True)["fake_broadcast"] is True


# ---------------------------------------------------------------- send and read
def test_each_power_reads_what_it_sent_or_received_and_the_broadcasts(api):
    game = new_game(api)
    first = sent(game, "FRANCE", ["GERMANY", "ITALY"], "Shall we?")
    assert first == {"id": first["id"], "phase": "S1901M", "sent_at": first["sent_at"], "from": "FRANCE",
                     "to": ["GERMANY", "ITALY"], "body": "Shall we?", "grey": False}
    reply = sent(game, "GERMANY", ["france"], "Yes.")
    everyone = sent(game, "ENGLAND", "all", "Peace in our time.")
    assert everyone["to"] == "all"
    assert [m["id"] for m in read(game, "FRANCE")] == [first["id"], reply["id"], everyone["id"]]
    assert [m["id"] for m in read(game, "ITALY")] == [first["id"], everyone["id"]]
    assert [m["id"] for m in read(game, "RUSSIA")] == [everyone["id"]]
    assert read(game, "GERMANY")[0] == first  # what a recipient sees of white press is what was sent
    # after: only the later ones
    assert [m["id"] for m in read(game, "FRANCE", after=first["id"])] == [reply["id"], everyone["id"]]
    assert read(game, "FRANCE", after=everyone["id"]) == []
    assert [m["id"] for m in read(game, "FRANCE", limit=2)] == [first["id"], reply["id"]]
    # the director: the broadcasts only, and the private press sent while director_reads is on
    assert [m["id"] for m in read(game, token=game.director)] == [everyone["id"]]
    api.put(f"{game.path}/press/rules", json={"press": {"director_reads": True}}, token=game.director)
    assert [m["id"] for m in read(game, token=game.director)] == [everyone["id"]]  # never backwards in time
    later = sent(game, "ITALY", ["FRANCE"], "Read by the director.")
    assert [m["id"] for m in read(game, token=game.director)] == [everyone["id"], later["id"]]
    assert [m["id"] for m in read(game, "FRANCE")] == [first["id"], reply["id"], everyone["id"], later["id"]]
    # a spectator reads nothing; a bad token, a bad id, a bad query
    assert api.get(f"{game.path}/press").status_code == 401
    assert api.get(f"{game.path}/press", token="nope").status_code == 401
    assert api.get(f"{game.path}/press", token=game.tokens["FRANCE"], params={"after": "17"}).status_code == 422
    assert api.get(f"{game.path}/press", token=game.tokens["FRANCE"], params={"limit": 0}).status_code == 422
    assert api.get("/v1/games/000000000000/press", token=game.tokens["FRANCE"]).status_code == 404


def test_grey_press_hides_its_sender_from_all_but_the_sender(api):
    game = new_game(api, press={"grey": "allowed", "director_reads": True})
    grey = sent(game, "FRANCE", ["GERMANY", "ITALY"], "Someone is watching.", grey=True)
    assert grey["from"] == "FRANCE" and grey["grey"] is True  # the sender's own view
    for reader in ("GERMANY", "ITALY"):
        assert read(game, reader)[0] | {"from": "?"} == grey | {"from": "?"}
        assert read(game, reader)[0]["from"] is None
    assert read(game, token=game.director)[0]["from"] is None  # the director too
    assert read(game, "FRANCE")[0]["from"] == "FRANCE"
    broadcast = sent(game, "AUSTRIA", "all", "Who am I?", grey=True)
    assert [m["from"] for m in read(game, "TURKEY")] == [None]
    assert read(game, "AUSTRIA")[-1] == broadcast


def test_grey_only_makes_press_grey_and_refuses_white(api):
    game = new_game(api, press="grey")
    assert sent(game, "FRANCE", ["GERMANY"])["grey"] is True
    assert read(game, "GERMANY")[0]["from"] is None
    refused(game, "FRANCE", ["GERMANY"], "grey: only", grey=False)


def test_a_fake_broadcast_shows_all_to_its_recipients_only(api):
    game = new_game(api, press={"fake_broadcast": True, "director_reads": True})
    fake = sent(game, "FRANCE", ["GERMANY", "ITALY"], "To all: peace.", fake_broadcast=True)
    assert fake["to"] == ["GERMANY", "ITALY"] and fake["fake_broadcast"] is True
    for reader in ("GERMANY", "ITALY"):
        seen = read(game, reader)[0]
        assert seen["to"] == "all" and "fake_broadcast" not in seen and seen["from"] == "FRANCE"
    assert read(game, "RUSSIA") == []  # a fake broadcast reaches only its group
    assert read(game, token=game.director)[0]["to"] == "all"
    refused(game, "FRANCE", "all", "fake broadcast goes to a group", fake_broadcast=True)


def test_every_way_a_message_is_refused(api):
    game = new_game(api, press={"private": True, "public": True})
    refused(game, "FRANCE", ["GERMANY"], "grey: no", grey=True)
    refused(game, "FRANCE", ["GERMANY"], "fake_broadcast: false", fake_broadcast=True)
    refused(game, "FRANCE", ["FRANCE"], "your own power")
    refused(game, "FRANCE", ["PRUSSIA"], "not a power of this game")
    refused(game, "FRANCE", [], "body.to")
    refused(game, "FRANCE", "everyone", "body.to")
    refused(game, "FRANCE", ["GERMANY"], "body.body", body="")
    refused(game, "FRANCE", ["GERMANY"], "body.body", body="x" * 10_001)
    assert send(game, "FRANCE", ["GERMANY"], "x" * 10_000).status_code == 201
    for control in ("\x00", "\x1b[31m", "\x85", "\u2028", "\x0c"):
        refused(game, "FRANCE", ["GERMANY"], "no control character", body=f"a{control}b")
    lines = sent(game, "FRANCE", ["GERMANY"], "one\r\n\ttwo\rthree")
    assert lines["body"] == "one\n\ttwo\nthree" and read(game, "GERMANY")[-1]["body"] == "one\n\ttwo\nthree"
    lone = api.post(f"{game.path}/press", data='{"to": "all", "body": "\\ud800"}',
                    headers={"Content-Type": "application/json"}, token=game.tokens["FRANCE"])
    assert lone.status_code == 422 and lone.json()["detail"].startswith("body.body: body: U+D800"), lone.text
    # who may send: a player for its own powers; not the director, not a spectator
    refused(game, "FRANCE", ["GERMANY"], "not your power", status=403, power="GERMANY")
    refused(game, "FRANCE", ["GERMANY"], "director does not send press", status=403, token=game.director)
    assert api.post(f"{game.path}/press", json={"to": "all", "body": "hi"}).status_code == 401
    assert send(game, "FRANCE", "all", token="nope").status_code == 401
    # before the start and after the end
    forming = api.post("/v1/games", json={"assignment": "chosen"}).json()
    token = api.post(f"/v1/games/{forming['game']['id']}/players", json={"name": "F", "power": "FRANCE"}).json()["token"]
    early = api.post(f"/v1/games/{forming['game']['id']}/press", json={"to": "all", "body": "hi"}, token=token)
    assert early.status_code == 409 and "has not started" in early.json()["detail"]
    api.post(f"{game.path}/end", json={"reason": "time"}, token=game.director)
    refused(game, "FRANCE", "all", "is over", status=409)


def test_public_and_none_presets_refuse_what_they_forbid(api):
    public = new_game(api, press="public")
    refused(public, "FRANCE", ["GERMANY"], "private: false")
    refused(public, "FRANCE", ["GERMANY"], "private: false", fake_broadcast=True)
    assert sent(public, "FRANCE", "all")["to"] == "all"
    gunboat = new_game(api, press="none")
    refused(gunboat, "FRANCE", ["GERMANY"], "private: false")
    refused(gunboat, "FRANCE", "all", "public: false")


def test_an_eliminated_power_cannot_send(api):
    created = api.post("/v1/games", json={"assignment": "chosen", "start": SOLO_START}).json()
    game = created_game(api, created)
    refused(game, "ENGLAND", "all", "ENGLAND has no unit and no supply centre left")
    assert sent(game, "FRANCE", ["ENGLAND"])  # it still reads
    assert read(game, "ENGLAND")[0]["from"] == "FRANCE"


def test_a_player_of_several_powers_names_the_one_that_writes(api):
    created = api.post("/v1/games", json={"variant": "four_player", "assignment": "chosen"}).json()
    gid = created["game"]["id"]
    seats = api.get("/v1/variants").json()
    groups = next(v for v in seats if v["name"] == "four_player")["players"]
    tokens = {}
    for group in groups:
        tokens[group[0]] = api.post(f"/v1/games/{gid}/players", json={"name": group[0], "power": group[0]}).json()["token"]
    multi = next(g for g in groups if len(g) > 1)
    other = next(g for g in groups if g is not multi)[0]
    path, token = f"/v1/games/{gid}/press", tokens[multi[0]]
    assert api.post(path, json={"to": [other], "body": "hi"}, token=token).status_code == 422
    resp = api.post(path, json={"power": multi[1], "to": [other], "body": "hi"}, token=token)
    assert resp.status_code == 201 and resp.json()["message"]["from"] == multi[1]
    own = api.post(path, json={"power": multi[0], "to": [multi[1]], "body": "me"}, token=token)
    assert own.status_code == 422 and "your own power" in own.json()["detail"]


# ---------------------------------------------------------------- phases, rollback, expiry
def retreat_game(api, **settings):
    created = api.post("/v1/games", json={"assignment": "chosen", "start": RETREAT_AHEAD, **settings})
    assert created.status_code == 201, created.text
    game = created_game(api, created.json())
    game.submit("FRANCE", ["A BUR - MUN", "A RUH S A BUR - MUN"])
    game.submit("GERMANY", ["A MUN H"])
    return game


def test_rulebook_press_is_silent_in_retreat_and_adjustment_phases(api):
    game = retreat_game(api, press="rulebook")
    assert sent(game, "FRANCE", ["GERMANY"])["phase"] == "F1901M"
    game.director_action("adjudicate")
    assert game.wait_phase("F1901R")
    refused(game, "GERMANY", ["FRANCE"], "phases: movement")
    refused(game, "FRANCE", "all", "phases: movement")
    game.director_action("adjudicate")
    assert game.wait_phase("W1901A")
    refused(game, "FRANCE", ["GERMANY"], "phases: movement")
    game.director_action("adjudicate")
    assert game.wait_phase("S1902M")
    assert sent(game, "GERMANY", ["FRANCE"], "Never again.")["phase"] == "S1902M"
    # under the default (phases: all) the same retreat phase takes press
    other = retreat_game(api)
    other.director_action("adjudicate")
    other.wait_phase("F1901R")
    assert sent(other, "GERMANY", ["FRANCE"])["phase"] == "F1901R"


def test_rollback_keeps_press_and_each_message_its_phase(api, redis_client):
    game = new_game(api)
    spring = sent(game, "FRANCE", ["GERMANY"], "spring")
    game.director_action("adjudicate")
    game.wait_phase("F1901M")
    fall = sent(game, "FRANCE", ["GERMANY"], "fall")
    assert fall["phase"] == "F1901M"
    assert api.post(f"{game.path}/rollback", json={"seq": 1, "reason": "redo"}, token=game.director).status_code == 200
    assert game.state()["phase"] == "S1901M"
    assert [(m["id"], m["phase"]) for m in read(game, "GERMANY")] == [(spring["id"], "S1901M"), (fall["id"], "F1901M")]
    again = sent(game, "FRANCE", ["GERMANY"], "spring again")
    assert again["phase"] == "S1901M"
    assert [m["id"] for m in read(game, "GERMANY")] == [spring["id"], fall["id"], again["id"]]  # in the order sent


def test_press_expires_with_the_game(api, redis_client):
    game = new_game(api)
    sent(game, "FRANCE", ["GERMANY"])
    sent(game, "ITALY", "all")
    press_keys = [k for k in keys.press_keys(game.id, POWERS) if redis_client.exists(k)]
    assert len(press_keys) >= 5 and all(redis_client.ttl(k) == -1 for k in press_keys)
    api.post(f"{game.path}/end", json={"reason": "time"}, token=game.director)
    ttl = redis_client.ttl(keys.game(game.id))
    assert ttl > 0 and all(abs(redis_client.ttl(k) - ttl) <= 1 for k in press_keys)


def test_press_is_rate_limited_per_token(redis_url):
    """Each token has its own count (two players behind one address are not held back together)."""
    from service.app import create_app
    from workers.core.settings import Settings

    config = Settings.from_env({"RATE_LIMITS": "on", "RATE_LIMIT_PRESS": "3 per minute"})
    app = create_app(redis_url, config)
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = "192.0.2.50"  # an address of its own: other tests' counts never mix
    created = client.post("/v1/games", json={"assignment": "chosen", "deadlines": LONG}).get_json()
    gid = created["game"]["id"]
    tokens = {p: client.post(f"/v1/games/{gid}/players", json={"name": p, "power": p}).get_json()["token"]
              for p in POWERS}

    def post(power):
        return client.post(f"/v1/games/{gid}/press", json={"to": "all", "body": "hi"},
                           headers={"Authorization": f"Bearer {tokens[power]}"})

    assert [post("FRANCE").status_code for _ in range(3)] == [201] * 3
    over = post("FRANCE")
    assert over.status_code == 429 and "3 per 1 minute" in over.get_json()["detail"] and over.headers["Retry-After"]
    assert post("GERMANY").status_code == 201  # another token, the same address


def test_a_fork_keeps_the_press_rules_or_takes_its_own(api):
    game = new_game(api, press="grey")
    kept = api.post(f"{game.path}/fork", json={}, token=game.director)
    assert kept.status_code == 201 and kept.json()["game"]["press"] == FULL | {"grey": "only"}
    own = api.post(f"{game.path}/fork", json={"press": "none"}, token=game.director)
    assert own.status_code == 201 and own.json()["game"]["press"] == FULL | {"private": False, "public": False}
