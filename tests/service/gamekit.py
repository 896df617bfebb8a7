"""Helpers to set up and drive games over HTTP in the service tests."""
from __future__ import annotations

from tests.service.svc_stack import wait_for

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
    return created_game(api, resp.json())


# A Fall 1905 position in which FRANCE owns 17 centres and A PIE - VEN takes the 18th (a solo);
# ENGLAND and GERMANY own nothing (eliminated in 1904 as far as this game knows).
SOLO_START = {
    "phase": "F1905M",
    "units": {"FRANCE": ["A PIE", "A PAR", "F BRE", "A MUN", "F NWY"], "AUSTRIA": ["A VIE", "A BUD"],
              "ITALY": ["A ROM", "F NAP"], "RUSSIA": ["A MOS", "A WAR"], "TURKEY": ["A CON", "F ANK"],
              "ENGLAND": [], "GERMANY": []},
    "centers": {"FRANCE": ["BRE", "PAR", "MAR", "SPA", "POR", "BEL", "HOL", "LVP", "LON", "EDI", "MUN", "KIE",
                           "BER", "DEN", "NWY", "SWE", "TUN"],
                "AUSTRIA": ["VIE", "BUD", "TRI", "SER"], "ITALY": ["ROM", "NAP", "VEN"],
                "RUSSIA": ["MOS", "WAR", "SEV", "STP", "RUM"], "TURKEY": ["ANK", "CON", "SMY", "BUL", "GRE"],
                "ENGLAND": [], "GERMANY": []},
}


# Fall 1901: FRANCE takes Munich with support and dislodges GERMANY's army: a retreat, then builds.
RETREAT_AHEAD = {
    "phase": "F1901M",
    "units": {"FRANCE": ["A BUR", "A RUH", "F BRE"], "GERMANY": ["A MUN", "F KIE", "A BER"],
              "ENGLAND": ["F LON"], "ITALY": ["A ROM"], "AUSTRIA": ["A VIE"], "RUSSIA": ["A MOS"],
              "TURKEY": ["A CON"]},
    "centers": {"FRANCE": ["BRE", "PAR", "MAR"], "GERMANY": ["MUN", "KIE", "BER"], "ENGLAND": ["LON"],
                "ITALY": ["ROM"], "AUSTRIA": ["VIE"], "RUSSIA": ["MOS"], "TURKEY": ["CON"]},
}


def created_game(api, created: dict, powers=POWERS, emails: dict | None = None) -> Game:
    """Seat one player on each of ``powers`` in a created (forming, chosen-powers) game, with the
    address ``emails`` gives a power."""
    gid = created["game"]["id"]
    tokens = {}
    for power in powers:
        address = {"email": emails[power]} if emails and power in emails else {}
        joined = api.post(f"/v1/games/{gid}/players", json={"name": power.title(), "power": power, **address})
        assert joined.status_code == 201, joined.text
        tokens[power] = joined.json()["token"]
    return Game(api, gid, created["director_token"], tokens)


def finished(game: Game, timeout: float = 20) -> dict:
    return wait_for(lambda: (s := game.state())["status"] == "finished" and s, timeout, f"game {game.id} to end")


def force_until(game: Game, phase: str, timeout: float = 20) -> dict:
    """Adjudicate phase after phase by the director until ``phase`` is open (or the game ends)."""
    def step():
        s = game.state()
        if s["phase"] == phase and s["status"] == "open" or s["status"] == "finished":
            return s
        if s["status"] == "open":
            game.director_action("adjudicate")
        return None
    return wait_for(step, timeout, f"game {game.id} to reach {phase}", interval=0.1)


def propose(game: Game, power: str, kind: str, **terms):
    return game.api.post(f"{game.path}/proposals", json={"power": power, "kind": kind, **terms},
                         token=game.tokens[power])


def vote(game: Game, proposal: str, power: str, ballot: str, token: str | None = None):
    return game.api.put(f"{game.path}/proposals/{proposal}/votes/{power}", json={"vote": ballot},
                        token=game.tokens[power] if token is None else token)
