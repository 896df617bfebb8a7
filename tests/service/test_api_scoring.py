"""POST /v1/scoring/{system}: the shared vectors over HTTP, and bad results naming their field."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

# a copy of the vectors of tournament-scoring.md (shared/rules/ beside the repository)
VECTORS = Path(__file__).resolve().parents[1] / "data" / "tournament-scoring-vectors.jsonl"
CASES = [json.loads(line) for line in VECTORS.read_text().splitlines() if line.strip()]
ONE_PER_SYSTEM = list({case["system"]: case for case in CASES}.values())


@pytest.mark.parametrize("case", ONE_PER_SYSTEM, ids=[c["id"] for c in ONE_PER_SYSTEM])
def test_a_vector_of_each_system_scores_over_http(api, case):
    resp = api.post(f"/v1/scoring/{case['system']}", json=case["result"])
    assert resp.status_code == 200, resp.text
    body = resp.json()
    assert body["system"] == case["system"]
    for power, expected in case["scores"].items():
        assert abs(body["scores"][power] - float(expected)) < 1e-9, (power, body["scores"][power], expected)


def test_bad_results_name_their_field_and_unknown_systems_list_the_systems(api):
    result = dict(CASES[0]["result"], centers={**CASES[0]["result"]["centers"], "ENGLAND": 30})
    resp = api.post("/v1/scoring/dss", json=result)
    assert resp.status_code == 422 and resp.json()["detail"].startswith("body.centers"), resp.text
    resp = api.post("/v1/scoring/elo", json=CASES[0]["result"])
    assert resp.status_code == 404 and "sum_of_squares" in resp.json()["detail"]
    assert api.post("/v1/scoring/dss", data="{", headers={"Content-Type": "application/json"}).status_code == 400
