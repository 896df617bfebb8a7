"""The pages for people in a real browser (docs/maps.md, "The pages"): Playwright
drives Debian's Chromium (never a browser of its own download) against the in-process service
served over HTTP; the tests look at what a person sees, with JavaScript off, and keep screenshots
in tests/artefacts/ (not committed).

These are the only tests that may skip: on a machine without Chromium, saying how to install it
(.ci/run installs it, so CI always runs them)."""
from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from tests.service.gamekit import LONG, POWERS, RETREAT_AHEAD, Game, new_game

ARTEFACTS = Path(__file__).resolve().parents[1] / "artefacts"
INSTALL = ("no Chromium to drive: install Debian's package (apt-get install -y chromium) "
           "or name a Chromium or Chrome binary in CHROMIUM")


def chromium() -> str | None:
    for candidate in (os.environ.get("CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium"),
                      shutil.which("chromium-browser"), shutil.which("google-chrome")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


@pytest.fixture(scope="module")
def browser():
    executable = chromium()
    if executable is None:
        pytest.skip(INSTALL)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture(scope="module")
def site(inproc):
    """The in-process service's application served over HTTP on a free port (pages and maps only
    read, so no job runs from the server's threads)."""
    server = make_server("127.0.0.1", 0, inproc.app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


@pytest.fixture
def page(browser):
    context = browser.new_context(java_script_enabled=False, viewport={"width": 1280, "height": 900})
    yield context.new_page()
    context.close()


def shot(page, name: str) -> None:
    ARTEFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTEFACTS / f"{name}.png"), full_page=True)


def test_the_game_page_in_a_browser(api, site, page):
    game = new_game(api, name="Browser game", start=RETREAT_AHEAD)
    game.submit("FRANCE", ["A BUR - MUN", "A RUH S A BUR - MUN"])
    game.submit("GERMANY", ["A MUN - BUR"])
    game.director_action("adjudicate")
    game.wait_phase("F1901R")

    page.goto(f"{site}/games/{game.id}")
    assert page.get_by_role("heading", level=1).inner_text() == "Browser game"
    assert page.get_by_role("heading", name="Now: Fall 1901, retreats").is_visible()
    current = page.get_by_role("img", name="Map of Fall 1901, retreats")
    assert current.is_visible() and "secret until it is adjudicated" in current.get_attribute("alt")
    assert current.evaluate("img => img.complete && img.naturalWidth === 1200")
    players = page.get_by_role("table", name="Players and their supply centres")
    france = players.get_by_role("row").filter(has_text="France")
    assert france.get_by_role("cell").nth(1).inner_text() == "3"  # its supply centres
    assert page.get_by_text("The orders of this phase are secret").is_visible()
    shot(page, "game-open-phase")

    # step back to the adjudicated phase: its map, its orders and results
    page.get_by_role("link", name="Fall 1901, movement").first.click()
    page.wait_for_url("**?phase=F1901M")
    assert page.get_by_role("heading", name="Fall 1901, movement", level=3).is_visible()
    drawn = page.get_by_role("img", name="Map of Fall 1901, movement")
    assert drawn.evaluate("img => img.complete && img.naturalWidth === 1200")
    results = page.get_by_role("table", name="Orders and results of Fall 1901, movement")
    rows = {r.get_by_role("cell").nth(1).inner_text(): r.get_by_role("cell").nth(2).inner_text()
            for r in results.get_by_role("row").all()[1:]}
    assert rows["A BUR - MUN"] == "succeeds" and rows["A MUN - BUR"] == "dislodged"
    nav = page.get_by_role("navigation", name="Phases of the game")
    assert nav.get_by_role("link").all_inner_texts() == ["F1901R"]  # the phase shown is not a link
    shot(page, "game-adjudicated-phase")


def test_the_tournament_page_in_a_browser(api, site, page):
    made = api.post("/v1/tournaments", json={"name": "Browser Cup", "system": "sum_of_squares", "rounds": 1,
                                             "aggregate": {"method": "sum"},
                                             "players": [f"Player {i}" for i in range(1, 8)]}).json()
    tid, director = made["tournament"]["id"], made["director_token"]
    seating = [dict(zip(POWERS, [f"t{i}" for i in range(1, 8)]))]
    boards = api.post(f"/v1/tournaments/{tid}/rounds/1/boards", json={"seating": seating, "game": {"deadlines": LONG}},
                      token=director).json()["boards"]
    board = Game(api, boards[0]["game"], director, {p: s["token"] for p, s in boards[0]["seats"].items()})
    proposal = api.post(f"{board.path}/proposals", json={"power": "ITALY", "kind": "draw"},
                        token=board.tokens["ITALY"]).json()
    for power in POWERS:
        if power != "ITALY":
            api.put(f"{board.path}/proposals/{proposal['id']}/votes/{power}", json={"vote": "yes"},
                    token=board.tokens[power])
    standings = api.get(f"/v1/tournaments/{tid}/standings").json()
    assert standings["complete"]

    page.goto(f"{site}/tournaments/{tid}")
    assert page.get_by_role("heading", level=1).inner_text() == "Browser Cup"
    table = page.get_by_role("table", name="Standings")
    rows = table.get_by_role("row").all()[1:]
    shown = [(r.get_by_role("rowheader").inner_text(), r.get_by_role("cell").nth(1).inner_text()) for r in rows]
    assert shown == [(row["name"], row["total_rounded"]) for row in standings["standings"]]  # two decimals
    thumbnail = page.get_by_role("img", name="The latest board of round 1, board 1")
    assert thumbnail.evaluate("img => img.complete && img.naturalWidth > 0")
    shot(page, "tournament")
    page.get_by_role("link", name="Board 1", exact=True).click()
    page.wait_for_url(f"**/games/{board.id}")
    assert page.get_by_role("heading", level=1).is_visible()
