"""Playing from the pages in a real browser (contracts/play.md): Playwright drives Debian's Chromium
against the in-process service served over HTTP (tests/service/test_pages_browser.py's fixtures).

One whole game is played by seven people who join from the lobby and act only from their pages
(orders by select and by text, private and public press, a retreat, a build and a disband, a draw
that passes); the other tests take a seat over (the old session ends), post a form without its
CSRF token, sign in by a mail's link and with an account, and answer a resolution's steps.
axe-core checks every kind of page; the actions are driven as a keyboard user would (Tab to the
control, then Enter or Space) wherever the test is about reaching a control.

Jobs (the adjudications the pages' requests queue) run when the test settles the in-process
stack, as a worker would run them."""
from __future__ import annotations

import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Error as PlaywrightError

from tests.service.gamekit import LONG, POWERS, RETREAT_AHEAD, Game
from tests.service.mailkit import text as mail_text  # noqa: F401 - the mail's text, for the sign-in link
from tests.service.resolution_cases import CASES
from tests.service.test_pages_browser import browser, chromium, shot, site  # noqa: F401 - shared fixtures

AXE = Axe()


def no_serious_violations(page, auditor=None) -> None:
    """axe-core on ``page`` finds nothing serious or critical.  A page without JavaScript is checked as
    its HTML, written into ``auditor`` (a page of this site with JavaScript) as it stands."""
    if auditor is not None:
        auditor.goto(page.url.split("/games/")[0] + "/static/pages.css")
        auditor.set_content(page.content())
        page = auditor
    found = AXE.run(page).response["violations"]
    bad = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3]) for v in found
           if v["impact"] in ("serious", "critical")]
    assert not bad, f"{page.url}: {bad}"


@pytest.fixture
def people(browser):  # noqa: F811
    """New browser contexts (one person each: cookies of their own), closed after the test."""
    made = []

    def person(javascript: bool = True):
        context = browser.new_context(java_script_enabled=javascript, viewport={"width": 1280, "height": 900})
        context.set_default_timeout(10_000)
        made.append(context)
        page = context.new_page()
        page.on("dialog", lambda dialog: dialog.accept())
        return page

    yield person
    for context in made:
        context.close()


def press_key_on(page, locator, key: str = "Enter") -> None:
    """Reach ``locator`` as a keyboard user does (focus moves to it), then press ``key``."""
    locator.focus()
    assert locator.evaluate("el => el === document.activeElement")
    page.keyboard.press(key)


def power_of(page) -> str:
    found = re.search(r"You play ([A-Za-z]+)\.", page.locator("header .sub").inner_text())
    assert found, page.locator("header").inner_text()
    return found.group(1).upper()


def section(page, power: str):
    return page.get_by_role("region", name=power.title(), exact=True)


def play(page, site: str, gid: str) -> None:  # noqa: F811
    """Open the player's page (with JavaScript, the page may be reloading itself after an event)."""
    try:
        page.goto(f"{site}/games/{gid}/play")
    except PlaywrightError as e:
        if "interrupted by another navigation" not in str(e):
            raise
        page.wait_for_load_state()


def ready(page) -> None:
    """"Ready"; with no orders stored the page asks first (a dialog with JavaScript, a page without)."""
    with page.expect_navigation():
        page.get_by_role("button", name="Ready", exact=True).click()
    if page.url.endswith("/play/ready"):
        assert "No orders are stored for" in page.get_by_role("alert").inner_text()
        with page.expect_navigation():
            page.get_by_role("button", name="Ready without orders").click()
    assert page.url.endswith("/play")


def test_a_whole_game_played_from_the_pages(api, inproc, site, people):  # noqa: F811
    made = api.post("/v1/games", json={"name": "Played in browsers", "deadlines": LONG, "start": RETREAT_AHEAD,
                                       "press": "full"}).json()
    gid, director = made["game"]["id"], made["director_token"]

    # seven people join from the lobby (the first with JavaScript, the others without); the last one
    # to join starts the game
    pages = []
    for i in range(7):
        page = people(javascript=i == 0)
        page.goto(site + "/")
        game = page.get_by_role("region", name="Played in browsers")
        game.get_by_label("Your name").fill(f"Person {i + 1}")
        press_key_on(page, game.get_by_role("button", name="Join", exact=True))
        page.wait_for_url(f"**/games/{gid}/play")
        pages.append(page)
        if i == 0:
            assert page.get_by_role("heading", name="Waiting for players").is_visible()
    inproc.settle()
    by_power = {}
    for page in pages:
        play(page, site, gid)
        by_power[power_of(page)] = page
    assert sorted(by_power) == POWERS
    france, germany, england = by_power["FRANCE"], by_power["GERMANY"], by_power["ENGLAND"]
    auditor = people()
    no_serious_violations(pages[0])

    # Fall 1901: France by text; Germany first with a mistake (each order shown back with its reason)
    section(france, "FRANCE").get_by_label("Orders as text").fill("A BUR - MUN\nA RUH S A BUR - MUN\nF BRE H")
    section(france, "FRANCE").get_by_role("button", name="Submit orders").click()
    assert france.get_by_role("status").inner_text() == "Orders for FRANCE stored."
    checked = france.get_by_role("table", name="Orders for France as checked")
    assert checked.get_by_role("row").filter(has_text="A BUR - MUN").get_by_role("cell").nth(1).inner_text() == "valid"
    section(germany, "GERMANY").get_by_label("Orders as text").fill("A MUN - BUR\nA BER - XYZ")
    section(germany, "GERMANY").get_by_role("button", name="Submit orders").click()
    refused = germany.get_by_role("table", name="Orders for Germany as checked")
    assert refused.get_by_role("row").filter(has_text="XYZ").get_by_role("cell").nth(1).inner_text() != "valid"
    assert "nothing was stored" in germany.get_by_role("alert").inner_text()
    section(germany, "GERMANY").get_by_label("Orders as text").fill("A MUN - BUR")
    section(germany, "GERMANY").get_by_role("button", name="Submit orders").click()
    shot(germany, "play-germany-orders")

    # press: France to Germany alone, England to all
    form = france.get_by_role("group", name="Send a message")
    form.get_by_label("Germany", exact=True).check()
    form.get_by_label("Message").fill("Shall we share Burgundy?")
    form.get_by_role("button", name="Send").click()
    form = england.get_by_role("group", name="Send a message")
    form.get_by_label("All", exact=True).check()
    form.get_by_label("Message").fill("England wants peace.")
    form.get_by_role("button", name="Send").click()
    play(germany, site, gid)
    messages = germany.locator("#messages article")
    assert messages.nth(0).inner_text().count("England wants peace.") == 1  # newest first
    assert "Shall we share Burgundy?" in messages.nth(1).inner_text()
    play(by_power["ITALY"], site, gid)
    italy_reads = by_power["ITALY"].locator("#messages").inner_text()
    assert "England wants peace." in italy_reads and "Burgundy" not in italy_reads  # private stays private

    # who has submitted, never what
    readiness = by_power["TURKEY"].get_by_role("table", name="Who has submitted and who is ready")
    play(by_power["TURKEY"], site, gid)
    row = readiness.get_by_role("row").filter(has_text="France")
    assert row.get_by_role("cell").nth(1).inner_text() == "submitted"
    assert "A BUR - MUN" not in by_power["TURKEY"].content()  # nobody else's orders
    no_serious_violations(by_power["TURKEY"], auditor)

    for power in POWERS:
        ready(by_power[power])
    inproc.settle()
    assert Game(api, gid, director, {}).state()["phase"] == "F1901R"

    # the retreat: Germany's army dislodged from Munich
    play(germany, site, gid)
    assert germany.get_by_role("heading", name="Now: Fall 1901, retreats").is_visible()
    section(germany, "GERMANY").get_by_label("Orders as text").fill("A MUN - BOH")
    section(germany, "GERMANY").get_by_role("button", name="Submit orders").click()
    ready(germany)
    inproc.settle()
    assert Game(api, gid, director, {}).state()["phase"] == "W1901A"

    # the adjustments: France builds, Germany (two centres, three units) disbands
    play(france, site, gid)
    section(france, "FRANCE").get_by_label("Orders as text").fill("A PAR B")
    section(france, "FRANCE").get_by_role("button", name="Submit orders").click()
    play(germany, site, gid)
    section(germany, "GERMANY").get_by_label("Orders as text").fill("A BOH D")
    section(germany, "GERMANY").get_by_role("button", name="Submit orders").click()
    ready(france)
    ready(germany)
    inproc.settle()
    state = Game(api, gid, director, {}).state()
    assert state["phase"] == "S1902M" and "A PAR" in state["position"]["units"]["FRANCE"]
    assert "A BOH" not in state["position"]["units"]["GERMANY"]

    # a draw, proposed by France, voted by everyone from their pages: it passes and the game ends
    play(france, site, gid)
    france.get_by_role("button", name="Propose a draw").click()
    for power in POWERS:
        if power == "FRANCE":
            continue
        play(by_power[power], site, gid)
        by_power[power].get_by_role("button", name="Vote yes").click()
    inproc.settle()
    play(france, site, gid)
    assert france.get_by_role("heading", name="The game is over").is_visible()
    assert "(open)" not in france.content()
    shot(france, "play-finished")
    public = people()
    public.goto(f"{site}/games/{gid}")
    assert "(open)" not in public.content()
