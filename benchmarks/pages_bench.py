"""How fast the pages are served (contracts/play.md: each page in at most 100 ms at p95, the map
image cached, on a game of 30 phases).  Not a timed test: it prints figures.

    python benchmarks/pages_bench.py [--phases 30] [--rounds 200]

It starts a private redis-server, makes a standard game of seven players through
``workers.tables.games`` (as the API does), plays ``--phases`` phases (every power's orders
stored, a message sent each phase, the director forcing each adjudication, its jobs run by an
RQ SimpleWorker here), signs a browser's session in as FRANCE through the pages' own sign-in
flow (the invitation link, the form and its CSRF token), and as an account and a resolution's
participant, and another browser's as the game's director and as the director of a tournament
of nine players (its first round's board made: seven seats, two byes), then times each page
through the application (Flask's test client, so the figures are the service's own time, no
network): p50 and p95 in milliseconds.
"""
from __future__ import annotations

import argparse
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
LONG = {"first_movement": 3600, "movement": 3600, "retreat": 3600, "adjustment": 3600}
from benchmarks.lobby_bench import timed  # noqa: E402  (after the path)

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


def sign_in(client, path: str, token: str) -> None:
    """The pages' sign-in form, as a browser fills it (its CSRF token first)."""
    form = client.get(f"/signin?next={path}").get_data(as_text=True)
    answer = client.post("/signin", data={"token": token, "next": path, "csrf_token": CSRF.search(form).group(1)})
    assert answer.status_code == 303, answer.get_data(as_text=True)[:500]


def play(games, worker, gid: str, director: str, tokens: dict, phases: int) -> None:
    for n in range(phases):
        state = games.views.public_state(gid)
        if state["status"] != "open":
            break
        for power in state["to_order"]:
            options = games.views.options(gid, tokens[power])["powers"][power]
            if "builds" in options:
                orders = options["orders"][:max(0, options["builds"])] or options["disbands"][:-options["builds"]]
            else:
                orders = [choices[min(1, len(choices) - 1)] for choices in options.values()]
            games.orders.submit(gid, tokens[power], power, orders)
        games.press.send(gid, tokens["FRANCE"], "FRANCE", "all", f"Phase {n}: peace in our time.")
        games.director.force(gid, director)
        worker.work(burst=True, logging_level="WARNING")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--phases", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=200)
    args = parser.parse_args()
    from rq import SimpleWorker

    from service.app import create_app
    from service.schemas import CreateGameSchema
    from service.launch import start_redis, stop
    from workers.core.store import Store
    from workers.runtime import jobs

    proc, url = start_redis(Path(tempfile.mkdtemp()) / "redis", persist=False)
    try:
        store = Store(url)
        jobs.install(store)
        worker = SimpleWorker([store.queue], connection=store.queue.connection)
        app = create_app(store=store)
        games = app.extensions["games"]
        account, account_token = games.accounts.create("Bench")
        spec = CreateGameSchema().load({"name": "Bench game", "assignment": "chosen", "deadlines": LONG})
        created, director = games.setup.create_game(spec)
        gid = created["id"]
        tokens = {p: games.setup.join(gid, p.title(), p, None, account["id"] if p == "FRANCE" else None)[1]
                  for p in POWERS}
        play(games, worker, gid, director, tokens, args.phases)
        history = len(games.views.history(gid))
        resolution, _rdir, rtokens = app.extensions["resolutions"].create(
            {"kind": "1630.vote", "state": _tv06(), "dice": "director",
             "participants": {p: {"name": p} for p in ("Tim", "Martin", "Simon")}})

        tournaments = app.extensions["tournaments"]
        made, td = tournaments.create({"name": "Bench cup", "system": "sum_of_squares", "rounds": 3,
                                       "aggregate": {"method": "sum"}, "players": [f"P{i}" for i in range(1, 10)]})
        tid = made["id"]
        tournaments.create_boards(tid, td, 1, "draw", {})  # a board of seven and two byes

        client = app.test_client()
        sign_in(client, f"/games/{gid}/play", tokens["FRANCE"])
        sign_in(client, "/me", account_token)
        sign_in(client, f"/resolutions/{resolution['id']}", rtokens["Tim"])
        director_client = app.test_client()  # a game's director and a tournament's: consoles
        sign_in(director_client, f"/games/{gid}/direct", director)
        sign_in(director_client, f"/tournaments/{tid}/direct", td)
        pages = [("lobby /", "/"), ("sign-in form", "/signin"), ("game (public)", f"/games/{gid}"),
                 ("game, a past phase", f"/games/{gid}?phase={games.views.history(gid)[2].phase}"),
                 ("player's page", f"/games/{gid}/play"), ("player's map (SVG)", f"/games/{gid}/play/map.svg"),
                 ("me", "/me"), ("resolution", f"/resolutions/{resolution['id']}"),
                 ("tournament (public)", f"/tournaments/{tid}")]
        consoles = [("game console", f"/games/{gid}/direct"), ("tournament console", f"/tournaments/{tid}/direct"),
                    ("player slips", f"/tournaments/{tid}/direct/slips?round=1")]
        print(f"game of {history} adjudicated phases; {args.rounds} requests a page")
        print(f"{'page':<24} {'status':>6} {'p50 ms':>7} {'p95 ms':>7}")
        for label, path, browser in [(*p, client) for p in pages] + [(*p, director_client) for p in consoles]:
            status = browser.get(path).status_code
            p50, p95 = timed(lambda: browser.get(path), args.rounds, 0.95)
            print(f"{label:<24} {status:>6} {p50:>7.1f} {p95:>7.1f}")
    finally:
        stop(proc)


def _tv06() -> dict:
    from tests.service.test_resolutions import TV06

    return TV06


if __name__ == "__main__":
    main()
