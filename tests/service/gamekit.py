"""Helpers to set up and drive games over HTTP in the service tests."""
from __future__ import annotations

from svc_stack import wait_for

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
LONG = {"first_movement": 3600, "movement": 3600, "retreat": 3600, "adjustment": 3600}


class Game:
    def __init__(self, api, gid: str, director: str, tokens: dict[str, str]):
        self.api, self.id, self.director, self.tokens = api, gid, director, tokens

    @property
    def path(self) -> str:
        return f"/v1/games/{self.id}"

    def state(self) -> dict:
        return self.api.get(self.path).json()

    def history(self) -> list[dict]:
        return self.api.get(f"{self.path}/history").json()["phases"]

    def submit(self, power: str, orders: list[str], token: str | None = None, **body):
        return self.api.put(f"{self.path}/orders/{power}", json={"orders": orders, **body},
                            token=self.tokens[power.upper()] if token is None else token)

    def ready(self, power: str, ready: bool = True):
        return self.api.put(f"{self.path}/ready", json={"ready": ready}, token=self.tokens[power])

    def director_action(self, action: str, **kw):
        return self.api.post(f"{self.path}/{action}", token=self.director, **kw)

    def all_ready(self) -> None:
        for power in self.state()["to_order"]:
            assert self.ready(power).status_code == 200

    def wait_phase(self, phase: str, timeout: float = 20) -> dict:
        return wait_for(lambda: (s := self.state())["phase"] == phase and s["status"] in ("open", "finished")
                        and s, timeout, f"game {self.id} to open {phase}")


def new_game(api, deadlines: dict | None = None, **settings) -> Game:
    """A standard game with chosen powers and every seat taken (so it has started)."""
    resp = api.post("/v1/games", json={"assignment": "chosen", "deadlines": deadlines or LONG, **settings})
    assert resp.status_code == 201, resp.text
    created = resp.json()
    gid = created["game"]["id"]
    tokens = {}
    for power in POWERS:
        joined = api.post(f"/v1/games/{gid}/players", json={"name": power.title(), "power": power})
        assert joined.status_code == 201, joined.text
        tokens[power] = joined.json()["token"]
    return Game(api, gid, created["director_token"], tokens)
