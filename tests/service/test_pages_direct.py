"""The directors' consoles in a real browser (contracts/play.md): a face-to-face board run from its
game's console, and a tournament round run from the tournament's console.  Playwright drives Debian's
Chromium with JavaScript off (every console form works without it; the consoles have no script),
against the in-process service served over HTTP (tests/service/test_pages_browser.py's fixtures);
axe-core checks every console page (tests/service/test_pages_play.py's ``no_serious_violations``).

Jobs (the adjudications and mails the forms queue) run when the test settles the in-process stack."""
from __future__ import annotations

import re

from tests.service.gamekit import LONG, POWERS
from tests.service.test_pages_browser import browser, shot, site  # noqa: F401 - shared fixtures
from tests.service.test_pages_play import no_serious_violations, people  # noqa: F401 - shared fixtures

NAMES = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
AT_THE_TABLE = {"AUSTRIA": "10", "ENGLAND": "9", "FRANCE": "8", "GERMANY": "4", "ITALY": "3", "RUSSIA": "0",
                "TURKEY": "0"}


def sign_in_at(page, base: str, path: str, token: str) -> None:
    """Open ``path``, be sent to the sign-in form, sign in with ``token``: back at ``path``.  The maps
    are not looked at here (tests/service/test_pages_browser.py looks at them): not drawn (time)."""
    page.route("**/map.svg", lambda route: route.abort())
    page.goto(base + path)
    page.get_by_label("Token").fill(token)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"**{path}")


def test_a_face_to_face_board_directed_from_its_console(api, inproc, site, people):  # noqa: F811
    made = api.post("/v1/games", json={"name": "Paper board", "assignment": "chosen", "deadlines": LONG}).json()
    gid, director = made["game"]["id"], made["director_token"]
    tokens = {p: api.post(f"/v1/games/{gid}/players", json={"name": p.title(), "power": p}).json()["token"]
              for p in POWERS if p != "TURKEY"}  # six at the table: the director starts without the seventh
    boss, auditor = people(javascript=False), people()
    sign_in_at(boss, site, f"/games/{gid}/direct", director)
    boss.get_by_role("button", name="Start").click()
    assert api.get(f"/v1/games/{gid}").json()["status"] == "open"

    # the paper orders typed in, one with a mistake first: its reason shown, nothing stored
    boss.get_by_label("Orders for FRANCE").fill("A PAR - BUR\nF BRE - XYZ")
    boss.get_by_role("button", name="Submit orders for FRANCE").click()
    assert "nothing was stored" in boss.get_by_role("alert").inner_text()
    checked = boss.get_by_role("table", name="Orders for France as checked")
    assert checked.get_by_role("row").filter(has_text="XYZ").get_by_role("cell").nth(1).inner_text() != "valid"
    assert boss.get_by_label("Orders for FRANCE").input_value() == "A PAR - BUR\nF BRE - XYZ"  # kept to mend
    paper = {"FRANCE": "A PAR - BUR\nF BRE - MAO", "GERMANY": "A MUN - RUH", "ENGLAND": "F LON - NTH"}
    for power, orders in paper.items():
        boss.get_by_label(f"Orders for {power}").fill(orders)
        boss.get_by_role("button", name=f"Submit orders for {power}").click()
        assert boss.url.endswith(f"/games/{gid}/direct")  # POST/redirect/GET
    seats = boss.get_by_role("table", name="Who has submitted and who is ready")
    assert seats.get_by_role("row").filter(has_text="France").get_by_role("cell").nth(1).inner_text() == "submitted"
    assert seats.get_by_role("row").filter(has_text="Italy").get_by_role("cell").nth(1).inner_text() == "not yet"
    no_serious_violations(boss, auditor)
    shot(boss, "console-game")

    # "Adjudicate now": the results on the console
    boss.get_by_role("button", name="Adjudicate now").click()
    inproc.settle()
    boss.reload()
    results = boss.get_by_role("table", name="Orders and results of Spring 1901, movement")
    moved = results.get_by_role("row").filter(has_text="A PAR - BUR")
    assert moved.get_by_role("cell").nth(2).inner_text() == "succeeds"
    assert boss.get_by_label("Roll back to").locator("option").all_inner_texts() == ["Spring 1901, movement"]

    # a form posted without its CSRF token: 400, nothing ended
    posted = boss.request.post(f"{site}/games/{gid}/direct/end", form={"end": "timeout"})
    assert posted.status == 400 and "nothing was changed" in posted.text()

    # "End game" with the draw agreed at the table
    boss.get_by_label("Draw", exact=True).check()
    members = boss.get_by_role("group", name="Members of the draw")
    for power in ("England", "France", "Germany"):
        members.get_by_label(power, exact=True).check()
    boss.get_by_role("button", name="End game").click()
    state = api.get(f"/v1/games/{gid}").json()
    assert state["status"] == "finished" and state["result"]["end"] == "draw"
    assert state["result"]["draw_members"] == ["ENGLAND", "FRANCE", "GERMANY"]
    assert "The game is over" in boss.get_by_role("region", name="Status").inner_text()
    entries = api.get(f"/v1/games/{gid}/audit", token=director).json()["entries"]
    entered = [e["detail"]["power"] for e in entries if e["action"] == "orders_entered"]
    assert entered == ["FRANCE", "GERMANY", "ENGLAND"]  # the audit says the director entered them
    assert [e["action"] for e in entries][-1] == "end"

    # a player's session may not open the console: a 403 page
    player = people(javascript=False)
    player.goto(f"{site}/games/{gid}?token={tokens['ITALY']}")
    player.get_by_role("button", name="Sign in").click()
    player.wait_for_url(f"**/games/{gid}/play")
    refused = player.goto(f"{site}/games/{gid}/direct")
    assert refused.status == 403 and refused.headers["content-type"].startswith("text/html")


def test_a_tournament_round_run_from_its_console(api, inproc, site, people):  # noqa: F811
    made = api.post("/v1/tournaments", json={"name": "Console Cup", "system": "sum_of_squares", "rounds": 2,
                                             "players": NAMES}).json()
    tid, director = made["tournament"]["id"], made["director_token"]
    boss, auditor = people(javascript=False), people()
    sign_in_at(boss, site, f"/tournaments/{tid}/direct", director)

    # a ninth player, and a tenth added by mistake and withdrawn
    for name in ("Ivy", "Oops"):
        boss.get_by_label("Name", exact=True).fill(name)
        boss.get_by_role("button", name="Add player").click()
    players = boss.get_by_role("table", name=re.compile("^Players"))
    players.get_by_role("row").filter(has_text="Oops").get_by_role("button", name="Withdraw").click()
    assert "withdrawn" in players.get_by_role("row").filter(has_text="Oops").inner_text()

    # "Make boards": one board of seven, two byes; no token on the page
    boss.get_by_role("button", name="Make boards").click()
    inproc.settle()
    view = api.get(f"/v1/tournaments/{tid}").json()
    assert len(view["boards"]) == 1 and len(view["byes"]["1"]) == 2 and "t10" not in view["byes"]["1"]
    round_1 = boss.get_by_role("region", name="Round 1")
    assert "Sitting out with a bye" in round_1.inner_text()
    no_serious_violations(boss, auditor)

    # the slips: printed, each with its board, power and a sign-in link that works
    boss.get_by_role("link", name="Player slips").click()
    slips = boss.locator("article.slip")
    assert slips.count() == 8  # seven seats, and the byes
    first = slips.first.inner_text()
    assert re.search(r"board 1, you play [A-Z][a-z]+", first) and "/signin/" in first
    no_serious_violations(boss, auditor)
    assert boss.pdf(format="A4").startswith(b"%PDF")
    link = slips.first.get_by_role("link").get_attribute("href")
    seated = people(javascript=False)
    seated.goto(site + link[link.index("/signin/"):])
    seated.get_by_role("button", name="Sign in").click()
    seated.wait_for_url(f"**/games/{view['boards'][0]['game']}/play")

    # "Record result" of the face-to-face board: a draw with the centres counted at the table
    boss.go_back()
    board = boss.locator("article.board").first
    board.get_by_label("Draw", exact=True).check()
    for power in ("Austria", "England", "France"):
        board.get_by_role("group", name="Members of the draw").get_by_label(power, exact=True).check()
    counted = board.get_by_role("group", name=re.compile("^Centres at the table"))
    for power, centres in AT_THE_TABLE.items():
        counted.get_by_label(power.title(), exact=True).fill(centres)
    board.get_by_role("button", name="Record result").click()
    inproc.settle()
    standings = api.get(f"/v1/tournaments/{tid}/standings").json()
    assert standings["rounds"][0]["complete"]
    table = boss.get_by_role("table", name=re.compile("^Standings"))
    shown = [(r.get_by_role("rowheader").inner_text(), r.get_by_role("cell").nth(1).inner_text())
             for r in table.get_by_role("row").all()[1:]]
    assert shown == [(row["name"], row["total_rounded"]) for row in standings["standings"]]
    assert all(re.fullmatch(r"\d+\.\d\d", total) for _name, total in shown)  # two decimals
    awards = boss.get_by_role("table", name=re.compile("^Best countries"))
    assert awards.get_by_role("row").filter(has_text="Austria").get_by_role("cell").first.inner_text() == "37.04"
    shot(boss, "console-tournament")

    # the board's console, opened from the tournament's
    boss.get_by_role("link", name="The console of board 1").click()
    assert "The game is over" in boss.get_by_role("region", name="Status").inner_text()
