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

import mailbox
import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Error as PlaywrightError

from tests.service.gamekit import LONG, POWERS, RETREAT_AHEAD, Game, new_game
from tests.service.test_resolutions import TV06, WAR_ON_FRANCE
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
        page.goto(site + "/?status=forming&limit=100")  # other tests' games may be newer by their own clocks
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
    for power, page in by_power.items():  # the bystanders' maps are not looked at: not drawn (time)
        if power not in ("FRANCE", "GERMANY") and page is not pages[0]:
            page.route("**/map.svg", lambda route: route.abort())
    france, germany, england = by_power["FRANCE"], by_power["GERMANY"], by_power["ENGLAND"]
    auditor = people()
    no_serious_violations(pages[0])
    # with JavaScript, the deadline in the reader's time zone, with the time left (the page says UTC)
    local = pages[0].locator("#deadline .local").inner_text()
    # (under an hour left, no hours: the first deadline is an hour after the start, less what has passed)
    assert re.fullmatch(r"; your time: .+ \((\d+ h )?\d+ min left\)\.", local), local
    assert pages[0].locator("#deadline time").inner_text().endswith(" UTC")

    # Fall 1901: France by its selects (one per unit, the options listed, the stored order selected);
    # Germany by text, first with a mistake (each order shown back with its reason)
    mine = section(france, "FRANCE")
    assert mine.get_by_label("A BUR", exact=True).locator("option").count() > 5
    mine.get_by_label("A BUR", exact=True).select_option("A BUR - MUN")
    mine.get_by_label("A RUH", exact=True).select_option("A RUH S A BUR - MUN")
    press_key_on(france, mine.get_by_role("button", name="Submit orders"))
    france.wait_for_load_state()
    assert france.get_by_role("status").inner_text() == "Orders for FRANCE stored."
    checked = france.get_by_role("table", name="Orders for France as checked")
    assert checked.get_by_role("row").filter(has_text="A BUR - MUN").get_by_role("cell").nth(1).inner_text() == "valid"
    play(france, site, gid)
    assert section(france, "FRANCE").get_by_label("A BUR", exact=True).input_value() == "A BUR - MUN"
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
    retreat = section(germany, "GERMANY").get_by_label("A MUN", exact=True)
    choices = retreat.locator("option").all_inner_texts()
    assert choices[0] == "A MUN D" and "BUR" not in "".join(choices)  # not where the attack came from
    retreat.select_option(next(c for c in choices if c.endswith("BOH")))
    section(germany, "GERMANY").get_by_role("button", name="Submit orders").click()
    ready(germany)
    inproc.settle()
    assert Game(api, gid, director, {}).state()["phase"] == "W1901A"

    # the adjustments: France builds, Germany (two centres, three units) disbands
    play(france, site, gid)
    section(france, "FRANCE").get_by_label("Build 1", exact=True).select_option("A PAR B")
    section(france, "FRANCE").get_by_role("button", name="Submit orders").click()
    play(germany, site, gid)
    section(germany, "GERMANY").get_by_label("Disband 1", exact=True).select_option("A BOH D")
    section(germany, "GERMANY").get_by_role("button", name="Submit orders").click()
    shot(germany, "play-disband")
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


def welcome_link(inproc, address: str) -> str:
    """The sign-in link of the welcome mailed to ``address`` (the outbox is a Maildir here)."""
    inproc.settle()
    for message in mailbox.Maildir(inproc.settings.mail_outbox).values():
        if message["To"] == address and "Welcome" in message["Subject"]:
            found = re.search(r"https?://\S+(/signin/\S+)", message.get_payload(decode=True).decode())
            assert found, message.get_payload()
            return found.group(1)
    raise AssertionError(f"no welcome to {address}")


def test_sign_in_by_link_invitation_account_and_a_takeover_ending_the_old_session(api, inproc, site,  # noqa: F811
                                                                                  people):
    made = api.post("/v1/games", json={"name": "Seats", "assignment": "chosen", "deadlines": LONG}).json()
    gid, director = made["game"]["id"], made["director_token"]
    tokens = {}
    for power in POWERS:
        body = {"name": power.title(), "power": power} | ({"email": "france@players.test"} if power == "FRANCE" else {})
        tokens[power] = api.post(f"/v1/games/{gid}/players", json=body).json()["token"]
    auditor = people()

    # France signs in with the link of its welcome mail: once
    france = people(javascript=False)
    link = welcome_link(inproc, "france@players.test")
    france.goto(site + link)
    no_serious_violations(france, auditor)
    press_key_on(france, france.get_by_role("button", name="Sign in"), " ")
    france.wait_for_url(f"**/games/{gid}/play")
    assert power_of(france) == "FRANCE"
    assert tokens["FRANCE"] not in france.content()
    cookie = next(c for c in france.context.cookies() if c["name"] == "dip_session")
    assert cookie["httpOnly"] and cookie["sameSite"] == "Lax" and not cookie["secure"]  # http here
    again = people(javascript=False)
    again.goto(site + link)
    again.get_by_role("button", name="Sign in").click()
    assert again.get_by_role("heading", level=1).inner_text() == "This sign-in link does not work"

    # a form posted without its CSRF token: 400, an HTML page, nothing stored
    posted = france.request.post(f"{site}/games/{gid}/play/orders/FRANCE", form={"text": "A PAR - BUR"})
    assert posted.status == 400 and posted.headers["content-type"].startswith("text/html")
    assert "nothing was changed" in posted.text()
    own = api.get(f"/v1/games/{gid}/orders", token=tokens["FRANCE"]).json()
    assert not own["powers"]["FRANCE"]["orders"]
    france.set_content(posted.text())
    no_serious_violations(france, auditor)

    # England follows an invitation link with its token: signed in, the token left behind
    england = people(javascript=False)
    england.goto(f"{site}/games/{gid}?token={tokens['ENGLAND']}")
    assert "token=" not in england.url
    england.get_by_role("button", name="Sign in").click()
    england.wait_for_url(f"**/games/{gid}/play")
    assert power_of(england) == "ENGLAND" and tokens["ENGLAND"] not in england.content()

    # a token alone at /signin opens what it was issued for: Germany's page, the director's console
    for token, lands in ((tokens["GERMANY"], f"/games/{gid}/play"), (director, f"/games/{gid}/direct"),
                         ("not-a-token", "/signin")):
        person = people(javascript=False)
        person.goto(site + "/signin")
        person.get_by_label("Token").fill(token)
        answer = person.get_by_role("button", name="Sign in")
        with person.expect_navigation():
            answer.click()
        assert person.url.endswith(lands), (token, person.url)
    assert "opens nothing here" in person.get_by_role("alert").inner_text()

    # the director opens England's seat; a person with an account takes it over from the lobby
    assert api.post(f"/v1/games/{gid}/seats/ENGLAND/open", token=director, json={"reason": "gone"}).status_code == 200
    account = api.post("/v1/accounts", json={"name": "Newcomer"}).json()
    newcomer = people(javascript=False)
    newcomer.goto(site + "/signin")
    no_serious_violations(newcomer, auditor)
    newcomer.get_by_label("Token").fill(account["token"])
    press_key_on(newcomer, newcomer.get_by_label("Token"))
    newcomer.wait_for_url("**/me")
    assert newcomer.get_by_role("heading", level=1).inner_text() == "Newcomer"
    newcomer.goto(site + "/?seats=open")
    no_serious_violations(newcomer, auditor)
    game = newcomer.get_by_role("region", name="Seats")
    game.get_by_label("Your name").fill("Newcomer")
    game.get_by_role("button", name="Take over", exact=True).click()
    newcomer.wait_for_url(f"**/games/{gid}/play")
    assert power_of(newcomer) == "ENGLAND"
    newcomer.goto(site + "/me")
    no_serious_violations(newcomer, auditor)
    assert newcomer.get_by_role("table", name="Games in which this account holds or held a seat").get_by_role(
        "link", name="Seats").is_visible()

    # the old England session is over: its page is the sign-in form, saying why
    england.goto(f"{site}/games/{gid}/play")
    assert "/signin" in england.url
    assert "no longer works" in england.get_by_role("alert").inner_text()
    assert england.get_by_label("Token").is_visible()

    # "Sign out" ends France's session
    france.goto(f"{site}/games/{gid}/play")
    france.get_by_role("button", name="Sign out").click()
    france.goto(f"{site}/games/{gid}/play")
    assert "/signin" in france.url
    # errors are pages: an unknown game
    missing = france.goto(f"{site}/games/000000000000/play")
    assert missing.status == 404 and missing.headers["content-type"].startswith("text/html")
    assert "content-security-policy" in missing.headers


def answer_on_page(page, value: str) -> None:
    """Answer the open step with ``value``: its control among the choices, or typed as JSON."""
    choice = page.get_by_label(value, exact=True)
    if choice.count():
        choice.check()
    else:
        page.get_by_label("Answer (JSON)").fill(f'"{value}"')
    page.get_by_role("button", name="Answer").click()


def test_a_resolution_answered_from_its_page(api, site, people):  # noqa: F811
    made = api.post("/v1/resolutions", json={"kind": "1630.vote", "state": TV06, "dice": "director",
                                             "participants": {p: {"name": p} for p in TV06["players"]}}).json()
    rid, director, tokens = made["resolution"]["id"], made["director_token"], made["tokens"]
    path = f"/v1/resolutions/{rid}"

    def sign_in(token):
        page = people(javascript=False)
        page.goto(f"{site}/resolutions/{rid}")
        page.get_by_role("link", name="Sign in").last.click()
        page.get_by_label("Token").fill(token)
        page.get_by_role("button", name="Sign in").click()
        page.wait_for_url(f"**/resolutions/{rid}")
        return page

    tim = sign_in(tokens["Tim"])
    auditor = people()
    no_serious_violations(tim, auditor)
    tim.get_by_label("ENGLAND", exact=True).check()
    tim.get_by_role("button", name="Answer").click()
    assert api.get(path).json()["log"][0]["value"] == "ENGLAND"
    for index, value in ((1, []), (2, WAR_ON_FRANCE)):
        answered = api.post(f"{path}/answers", token=tokens["Tim"], json={"step": index, "answer": value})
        assert answered.status_code == 200
    simon = sign_in(tokens["Simon"])
    simon.get_by_label("Answer (JSON)").fill("[]")  # the sealed placement: no choices to list
    simon.get_by_role("button", name="Answer").click()
    assert api.post(f"{path}/answers", token=tokens["Martin"], json={"step": 3, "answer": []}).status_code == 200

    # the sealed ballot: each sees its own answer only
    simon.reload()
    answer_on_page(simon, "BLUE")
    assert 'Your answer: "BLUE"' in simon.locator("main").inner_text()
    tim.reload()
    answer_on_page(tim, "RED")
    seen = tim.locator("main").inner_text()
    assert 'Your answer: "RED"' in seen and "BLUE" not in seen.split("Log")[0].replace("BLUE\n", "")
    assert api.post(f"{path}/answers", token=tokens["Martin"], json={"step": 4, "answer": "RED"}).status_code == 200

    # the director: dice as rolled, then pause, resume and cancel
    boss = sign_in(director)
    no_serious_violations(boss, auditor)
    dice = api.get(path, token=director).json()["step"]
    assert dice["type"] == "dice"
    for i in range(dice["count"]):
        boss.get_by_label(f"Die {i + 1}", exact=True).fill("1")
    boss.get_by_role("button", name="Roll").click()
    assert len(api.get(path).json()["log"]) == 6
    boss.get_by_role("button", name="Pause").click()
    assert api.get(path).json()["paused"]
    boss.get_by_role("button", name="Resume").click()
    assert not api.get(path).json()["paused"]
    boss.get_by_role("button", name="Cancel").click()
    assert api.get(path).json()["status"] == "cancelled"


def test_ready_with_no_orders_stored_is_taken_with_a_warning(api):
    """The API (and mail's READY, which calls the same method) warn: ``without_orders``."""
    game = new_game(api)
    assert game.ready("FRANCE").json()["without_orders"] == ["FRANCE"]
    assert game.submit("ENGLAND", ["F LON - NTH"]).status_code == 200
    answer = game.ready("ENGLAND").json()
    assert answer["without_orders"] == [] and answer["ready"] == ["ENGLAND", "FRANCE"]


def test_the_lobby_page_takes_an_empty_field_as_any_and_refuses_a_bad_limit(api):
    """An empty value is what a form sends for "any" (its fields, and a hand-typed ``limit=``): the
    default; a limit out of range is a 400, an HTML page saying so (schemathesis found ``limit=`` let
    through where the contract said integer)."""
    assert api.request("GET", "/?status=&seats=&variant=&cursor=&limit=").status_code == 200
    bad = api.request("GET", "/?limit=0")
    assert bad.status_code == 400 and bad.headers["Content-Type"].startswith("text/html"), bad.text[:300]
    assert "limit" in bad.text
