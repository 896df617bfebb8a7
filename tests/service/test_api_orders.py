"""Submitting orders: how they are read, what is refused, late submissions, secrecy."""
from __future__ import annotations

from tests.service.svc_stack import now, wait_for
from tests.service.gamekit import POWERS, new_game


def test_submission_reads_each_order_into_canonical_form(api):
    game = new_game(api)
    resp = game.submit("france", ["a par-bur", "F Brest -> Mid", "A Marseilles Supports A Paris - Burgundy"])
    assert resp.status_code == 200
    body = resp.json()
    assert body["power"] == "FRANCE" and body["phase"] == "S1901M" and body["stored"] is True
    assert [o["order"] for o in body["orders"]] == ["A PAR - BUR", "F BRE - MAO", "A MAR S A PAR - BUR"]
    assert all(o["valid"] for o in body["orders"])
    own = api.get(f"{game.path}/orders", token=game.tokens["FRANCE"]).json()
    assert own["powers"]["FRANCE"]["orders"] == ["A PAR - BUR", "F BRE - MAO", "A MAR S A PAR - BUR"]


def test_invalid_orders_are_refused_order_by_order_and_nothing_is_lost(api):
    game = new_game(api)
    assert game.submit("ENGLAND", ["F LON - NTH"]).status_code == 200
    resp = game.submit("ENGLAND", ["F EDI - NWG", "A PAR - BUR", "F LON - XYZ", "A LVP - MOS"])
    assert resp.status_code == 422
    problem = resp.json()
    assert "3 of 4 orders for ENGLAND are invalid" in problem["detail"]
    readings = problem["orders"]
    assert [r["valid"] for r in readings] == [True, False, False, False]
    assert readings[0]["order"] == "F EDI - NWG"
    assert all(r["reason"] for r in readings[1:])
    # the refused submission did not replace the accepted one
    own = api.get(f"{game.path}/orders", token=game.tokens["ENGLAND"]).json()
    assert own["powers"]["ENGLAND"]["orders"] == ["F LON - NTH"]


def test_orders_for_another_powers_units_or_path_are_refused(api):
    game = new_game(api)
    # FRANCE's units in ENGLAND's orders
    resp = game.submit("ENGLAND", ["A PAR - BUR"])
    assert resp.status_code == 422 and resp.json()["orders"][0]["valid"] is False
    # ENGLAND's token on FRANCE's orders
    resp = game.submit("FRANCE", ["A PAR - BUR"], token=game.tokens["ENGLAND"])
    assert resp.status_code == 403 and "FRANCE is not your power" in resp.json()["detail"]
    assert "FRANCE" not in game.state()["submitted"]


def test_replace_and_clear(api):
    game = new_game(api)
    game.submit("TURKEY", ["F ANK - BLA"])
    game.submit("TURKEY", ["A CON - BUL"])
    own = api.get(f"{game.path}/orders", token=game.tokens["TURKEY"]).json()["powers"]["TURKEY"]
    assert own["orders"] == ["A CON - BUL"] and own["must_order"] is True
    assert game.state()["submitted"] == ["TURKEY"]
    cleared = api.delete(f"{game.path}/orders/TURKEY", token=game.tokens["TURKEY"])
    assert cleared.status_code == 200 and cleared.json()["stored"] is False
    assert game.state()["submitted"] == []
    assert api.get(f"{game.path}/orders", token=game.tokens["TURKEY"]).json()["powers"]["TURKEY"]["orders"] is None


def test_late_submissions_are_refused(api):
    game = new_game(api, deadlines={"first_movement": 2, "movement": 3600, "retreat": 60, "adjustment": 60})
    assert game.submit("RUSSIA", ["A WAR - GAL"]).status_code == 200
    deadline = game.state()["deadline"]
    wait_for(lambda: now() >= _epoch(deadline), 10, "the deadline to pass")
    late = game.submit("RUSSIA", ["A MOS - UKR"], phase="S1901M")  # the next phase may already be open
    assert late.status_code == 409
    assert ("deadline of S1901M passed" in late.json()["detail"]
            or "is closed and being adjudicated" in late.json()["detail"]
            or "current phase is F1901M" in late.json()["detail"])
    game.wait_phase("F1901M")
    stale = game.submit("RUSSIA", ["A MOS - UKR"], phase="S1901M")
    assert stale.status_code == 409 and "current phase is F1901M" in stale.json()["detail"]
    [record] = game.history()
    assert record["orders"] == {"RUSSIA": ["A WAR - GAL"]}  # the accepted submission, not the late one


def test_no_one_sees_orders_before_adjudication(api, redis_client):
    game = new_game(api)
    secret = ["A PAR - PIC", "F BRE - ENG", "A MAR - SPA"]
    assert game.submit("FRANCE", secret).status_code == 200
    public = [api.get(game.path).text, api.get(f"{game.path}/history").text]
    for text in public:
        assert "PIC" not in text and "F BRE - ENG" not in text
    assert game.state()["submitted"] == ["FRANCE"]
    # every other player's token sees only its own power
    for power in POWERS:
        if power == "FRANCE":
            continue
        own = api.get(f"{game.path}/orders", token=game.tokens[power])
        assert list(own.json()["powers"]) == [power] and "PIC" not in own.text
        assert api.get(f"{game.path}/orders/FRANCE", token=game.tokens[power], check=False).status_code == 405
    # the director's token is not a player token
    assert api.get(f"{game.path}/orders", token=game.director).status_code == 401
    assert api.get(f"{game.path}/orders").status_code == 401
    assert api.get(f"{game.path}/orders", token="not-a-token").status_code == 401
    # tokens are stored only as hashes
    assert not any(game.tokens["FRANCE"] in v for v in redis_client.hgetall(f"dip:game:{game.id}:tokens"))
    assert game.director not in redis_client.hgetall(f"dip:game:{game.id}").values()
    # after adjudication the orders are public history
    game.all_ready()
    game.wait_phase("F1901M")
    assert game.history()[0]["orders"]["FRANCE"] == secret


def _epoch(iso: str) -> float:
    from datetime import datetime

    return datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp()


def test_clear_checks_its_query(api):
    game = new_game(api)
    game.submit("AUSTRIA", ["A VIE - GAL"])
    resp = api.delete(f"{game.path}/orders/AUSTRIA?colour=red", token=game.tokens["AUSTRIA"])
    assert resp.status_code == 422 and resp.json()["detail"].startswith("query.colour")
    resp = api.delete(f"{game.path}/orders/AUSTRIA?phase=F1901M", token=game.tokens["AUSTRIA"])
    assert resp.status_code == 409 and "current phase is S1901M" in resp.json()["detail"]
    assert game.state()["submitted"] == ["AUSTRIA"]
    assert api.delete(f"{game.path}/orders/AUSTRIA?phase=s1901m", token=game.tokens["AUSTRIA"]).status_code == 200
    assert game.state()["submitted"] == []


def test_submissions_racing_the_deadline_are_never_lost(api):
    """Every power keeps replacing its orders while the deadline passes: the
    orders adjudicated are exactly each power's last submission that got 200,
    and once one got 409 no later one got 200.  (In-process, the deadline passes
    when the fake clock is moved past it, with the seven still submitting; the
    deadline's job then races their requests.)"""
    import threading

    from tests.service.svc_stack import pass_time

    sets = {"AUSTRIA": (["A VIE - GAL"], ["A VIE - BOH"]), "ENGLAND": (["F LON - NTH"], ["F LON - ENG"]),
            "FRANCE": (["A PAR - BUR"], ["A PAR - PIC"]), "GERMANY": (["A BER - KIE"], ["A BER - SIL"]),
            "ITALY": (["A VEN - TYR"], ["A VEN - PIE"]), "RUSSIA": (["A WAR - UKR"], ["A WAR - GAL"]),
            "TURKEY": (["A CON - BUL"], ["A SMY - ARM"])}
    game = new_game(api, deadlines={"first_movement": 2, "movement": 3600, "retreat": 60, "adjustment": 60})
    deadline = _epoch(game.state()["deadline"])
    last: dict[str, list[str]] = {}
    late_success: list[str] = []
    progress = {power: 0 for power in sets}  # submissions made, per power (inf once it stopped)
    moved = threading.Condition()

    def hammer(power):
        client, refused, i = api.clone(), False, 0  # a connection (a test client) of its own
        while i < 2000:
            orders = sets[power][i % 2]
            r = client.put(f"{game.path}/orders/{power}", json={"orders": orders, "phase": "S1901M"},
                           token=game.tokens[power])
            assert r.status_code in (200, 409), r.text
            if r.status_code == 200:
                if refused:
                    late_success.append(power)
                last[power] = orders
            elif not refused:
                refused = True
                stop_at = i + 5  # a few more tries after the first refusal
            if refused and i >= stop_at:
                return
            i += 1
            with moved:
                progress[power] = i
                moved.notify_all()

    failures: list[str] = []

    def run(power):
        try:
            hammer(power)
        except Exception as e:  # report it here, not as a thread warning
            failures.append(f"{power}: {e!r}")
        finally:
            with moved:
                progress[power] = float("inf")
                moved.notify_all()

    threads = [threading.Thread(target=run, args=(p,)) for p in sets]
    for t in threads:
        t.start()
    with moved:  # every power is submitting ...
        assert moved.wait_for(lambda: min(progress.values()) >= 10, 60), progress
    pass_time(max(0.0, deadline - now()) + 1)  # ... when the deadline passes
    for t in threads:
        t.join(60)
    assert failures == [] and late_success == []
    game.wait_phase("F1901M", timeout=15)
    assert game.history()[0]["orders"] == last
    assert set(last) == set(sets)
