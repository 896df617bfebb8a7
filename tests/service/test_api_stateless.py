"""POST /v1/adjudicate/diplomacy: one position in the interchange format, answered at once."""
from __future__ import annotations


def test_adjudicates_a_position(api):
    request = {"phase": "S1901M",
               "units": {"FRANCE": ["A PAR", "A MAR"], "GERMANY": ["A MUN"]},
               "centers": {"FRANCE": ["PAR", "MAR", "BRE"], "GERMANY": ["MUN"]},
               "orders": {"FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR"], "GERMANY": ["A MUN - BUR", "junk"]}}
    resp = api.post("/v1/adjudicate/diplomacy", json=request)
    assert resp.status_code == 200
    body = resp.json()
    outcomes = {r["order"]: r["outcome"] for r in body["results"]}
    assert outcomes["A PAR - BUR"] == "succeeds" and outcomes["A MUN - BUR"] == "fails"
    assert any(r["outcome"] == "invalid" and r.get("reason") for r in body["results"])
    assert body["next"]["phase"] == "F1901M" and "A BUR" in body["next"]["units"]["FRANCE"]


def test_malformed_positions_are_422_with_the_field(api):
    resp = api.post("/v1/adjudicate/diplomacy", json={"phase": "S1901M", "units": {"FRANCE": ["A XYZ"]}})
    assert resp.status_code == 422 and resp.json()["detail"].startswith("body.units")
    resp = api.post("/v1/adjudicate/diplomacy", json={"phase": "spring", "units": {}})
    assert resp.status_code == 422 and "body.phase" in resp.json()["detail"]
    resp = api.post("/v1/adjudicate/diplomacy", json={"units": {}})
    assert resp.status_code == 422 and "body.phase" in resp.json()["detail"]


def test_variants_are_listed(api):
    variants = {v["name"]: v for v in api.get("/v1/variants").json()}
    assert len(variants["standard"]["players"]) == 7
    assert variants["four_player"]["players"][0] == ["ENGLAND"]


def test_next_can_be_sent_back_with_orders(api):
    first = api.post("/v1/adjudicate/diplomacy", json={
        "phase": "F1901M", "units": {"AUSTRIA": ["A TYR", "F TRI"], "ITALY": ["A VEN"]},
        "centers": {"AUSTRIA": ["VIE", "TRI", "BUD"], "ITALY": ["VEN", "ROM", "NAP"]},
        "orders": {"AUSTRIA": ["A TYR - VEN", "F TRI S A TYR - VEN"]}}).json()
    nxt = first["next"]
    assert nxt["phase"] == "F1901R" and "A VEN" in nxt["retreat_options"]
    second = api.post("/v1/adjudicate/diplomacy", json={**nxt, "orders": {"ITALY": ["A VEN R PIE"]}})
    assert second.status_code == 200, second.json()
    assert second.json()["results"][0]["outcome"] == "succeeds"
    assert "A PIE" in second.json()["next"]["units"]["ITALY"]


def test_retreat_after_a_convoyed_attack_may_go_to_the_attackers_origin(api):
    """The engine sends attacked_from null for a convoyed attacker (spec §15 E7, DATC 6.H.11); the
    endpoint must accept that position back, and the retreat to the origin succeeds."""
    first = api.post("/v1/adjudicate/diplomacy", json={
        "phase": "S1901M", "units": {"ENGLAND": ["A PIC", "F ENG", "F NTH"], "FRANCE": ["A BEL"]},
        "centers": {}, "orders": {"ENGLAND": ["A PIC - BEL", "F ENG C A PIC - BEL", "F NTH S A PIC - BEL"]}}).json()
    nxt = first["next"]
    assert nxt["dislodged"]["FRANCE"] == [{"unit": "A BEL", "attacked_from": None}]
    second = api.post("/v1/adjudicate/diplomacy", json={**nxt, "orders": {"FRANCE": ["A BEL R PIC"]}})
    assert second.status_code == 200, second.json()
    assert "A PIC" in second.json()["next"]["units"]["FRANCE"]


def test_a_dislodged_unit_with_no_retreat_is_disbanded_at_once_and_said_so(api):
    """Issue 8: no retreat phase opens when nobody can retreat; the response says who was disbanded."""
    body = {"phase": "S1901M", "units": {"FRANCE": ["A PAR"], "GERMANY": ["A BUR", "A PIC", "A GAS", "A BRE"]},
            "orders": {"GERMANY": ["A BUR - PAR", "A PIC S A BUR - PAR"]}}
    response = api.post("/v1/adjudicate/diplomacy", json=body).json()
    assert response["next"]["phase"] == "F1901M"
    assert response["disbanded"] == {"FRANCE": ["A PAR"]}
    par = next(r for r in response["results"] if r["order"].startswith("A PAR"))
    assert par["outcome"] == "dislodged" and par["disbanded"] is True
