"""The maps of docs/maps.md over HTTP: a game's board phase by phase (the open phase never
shows orders), the stateless render, and the pages for people (their HTML; the browser tests are
tests/pages)."""
from __future__ import annotations

from html.parser import HTMLParser

from service import boards
from tests.maps.svg import Picture
from tests.service.gamekit import RETREAT_AHEAD, SOLO_START, finished, new_game

REQUEST = {"phase": "S1901M", "units": {"FRANCE": ["A PAR", "A MAR"], "GERMANY": ["A MUN"]},
           "centers": {"FRANCE": ["PAR", "MAR", "BRE"], "GERMANY": ["MUN"]},
           "orders": {"FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR"], "GERMANY": ["A MUN - BUR"]}}


def png_width(content: bytes) -> int:
    assert content[:8] == b"\x89PNG\r\n\x1a\n"
    return int.from_bytes(content[16:20], "big")


def test_a_game_map_shows_orders_only_once_adjudicated(api):
    game = new_game(api, start=RETREAT_AHEAD)
    opened = api.get(f"{game.path}/map.svg")
    assert opened.status_code == 200 and opened.headers["Content-Type"].startswith("image/svg+xml")
    assert opened.headers["Content-Security-Policy"].startswith("default-src 'none'")
    pic = Picture(opened.text)
    assert pic.root.attrib["data-phase"] == "F1901M" and pic.orders() == []

    assert game.submit("FRANCE", ["A BUR - MUN", "A RUH S A BUR - MUN"]).status_code == 200
    assert game.submit("GERMANY", ["A MUN - BUR"]).status_code == 200
    secret = Picture(api.get(f"{game.path}/map.svg?phase=F1901M").text)
    assert secret.orders() == [], "orders submitted for the open phase stay secret"

    game.director_action("adjudicate")
    game.wait_phase("F1901R")
    done = Picture(api.get(f"{game.path}/map.svg", params={"phase": "f1901m"}).text)
    assert ("FRANCE", "A BUR - MUN", "succeeds") in done.orders()
    assert ("GERMANY", "A MUN - BUR", "dislodged") in done.orders()
    assert done.all("data-unit", "A MUN")[0].attrib["data-dislodged"] == "true"

    # the retreat phase now open: its dislodged unit shown, its retreat order not yet
    game.submit("GERMANY", ["A MUN R BOH"])
    latest = Picture(api.get(f"{game.path}/map.svg").text)
    assert latest.root.attrib["data-phase"] == "F1901R" and latest.orders() == []
    german = [u for u in latest.all("data-unit", "A MUN") if u.attrib["data-power"] == "GERMANY"]
    assert [u.attrib.get("data-dislodged") for u in german] == ["true"]

    png = api.get(f"{game.path}/map.png?phase=F1901M&width=600")
    assert png.status_code == 200 and png.headers["Content-Type"] == "image/png" and png_width(png.content) == 600
    assert png_width(api.get(f"{game.path}/map.png").content) == 1200


def test_maps_of_adjudicated_phases_are_cached(api):
    game = new_game(api)
    game.director_action("adjudicate")
    game.wait_phase("F1901M")
    before = boards._cached_svg.cache_info()
    first = api.get(f"{game.path}/map.svg?phase=S1901M").text
    second = api.get(f"{game.path}/map.svg?phase=S1901M").text
    after = boards._cached_svg.cache_info()
    assert first == second and after.hits >= before.hits + 1 and after.misses == before.misses + 1
    api.get(f"{game.path}/map.svg")  # the open phase: drawn each time, never cached
    assert boards._cached_svg.cache_info().misses == after.misses


def test_bad_map_queries_are_problems(api):
    game = new_game(api)
    assert api.get(f"{game.path}/map.svg?phase=S1950M").status_code == 404
    for query in ("phase=spring", "width=50", "width=wide"):
        resp = api.get(f"{game.path}/map.png?{query}")
        assert resp.status_code == 422 and "query." in resp.json()["detail"], query
    assert api.get("/v1/games/0123456789ab/map.svg").status_code == 404


def test_render_is_stateless_and_answers_svg_or_png(api):
    resp = api.post("/v1/render/diplomacy", json=REQUEST)
    assert resp.status_code == 200 and resp.headers["Content-Type"].startswith("image/svg+xml")
    pic = Picture(resp.text)
    assert ("GERMANY", "A MUN - BUR", "fails") in pic.orders() and pic.one("data-bounce", "BUR") is not None
    png = api.post("/v1/render/diplomacy?format=png&width=800", json=REQUEST)
    assert png.headers["Content-Type"] == "image/png" and png_width(png.content) == 800
    bad = api.post("/v1/render/diplomacy", json={**REQUEST, "units": {"FRANCE": ["A XYZ"]}})
    assert bad.status_code == 422 and bad.json()["detail"].startswith("body.units")
    assert api.post("/v1/render/diplomacy?format=gif", json=REQUEST).status_code == 422


class Outline(HTMLParser):
    """The parts of a page a person (or a screen reader) relies on."""

    def __init__(self):
        super().__init__()
        self.headings, self.images, self.tables, self.links, self.scripts = [], [], 0, [], 0
        self._heading = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in ("h1", "h2", "h3"):
            self._heading = [tag, ""]
        elif tag == "img":
            self.images.append(attrs)
        elif tag == "table":
            self.tables += 1
        elif tag == "a":
            self.links.append(attrs.get("href"))
        elif tag == "script":
            self.scripts += 1

    def handle_data(self, data):
        if self._heading:
            self._heading[1] += data

    def handle_endtag(self, tag):
        if self._heading and tag == self._heading[0]:
            self.headings.append((tag, " ".join(self._heading[1].split())))
            self._heading = None


def outline(html: str) -> Outline:
    o = Outline()
    o.feed(html)
    return o


def test_the_game_page(api):
    game = new_game(api, name="Page test")
    game.director_action("adjudicate")
    game.wait_phase("F1901M")
    page = api.get(f"/games/{game.id}")
    assert page.status_code == 200 and page.headers["Content-Type"].startswith("text/html")
    o = outline(page.text)
    assert o.scripts == 0 and ("h1", "Page test") in o.headings
    assert ("h2", "Now: Fall 1901, movement") in o.headings
    assert all(img.get("alt") for img in o.images)
    assert f"/v1/games/{game.id}/map.svg?phase=F1901M" in [img["src"] for img in o.images]
    assert "?phase=S1901M" in o.links and o.tables == 1  # the players; the open phase has no orders
    earlier = outline(api.get(f"/games/{game.id}?phase=S1901M").text)
    assert ("h3", "Spring 1901, movement") in earlier.headings and earlier.tables == 2
    for missing in (f"/games/{game.id}?phase=W1999A", "/games/0123456789ab"):  # a page's error is a page
        answer = api.request("GET", missing)
        assert answer.status_code == 404 and answer.headers["Content-Type"].startswith("text/html")


def test_a_rolled_back_phase_is_drawn_from_its_new_record(api):
    game = new_game(api)
    game.director_action("adjudicate")
    game.wait_phase("F1901M")
    game.submit("FRANCE", ["A PAR - BUR"])
    game.director_action("adjudicate")
    game.wait_phase("S1902M")
    assert ("FRANCE", "A PAR - BUR", "succeeds") in Picture(api.get(f"{game.path}/map.svg?phase=F1901M").text).orders()

    api.post(f"{game.path}/rollback", json={"seq": 2, "reason": "a misread order"}, token=game.director)
    reopened = Picture(api.get(f"{game.path}/map.svg?phase=F1901M").text)
    assert reopened.orders() == [], "open again: the superseded record's orders are not shown"
    game.submit("FRANCE", ["A PAR - PIC"])
    game.director_action("adjudicate")
    game.wait_phase("S1902M")
    again = Picture(api.get(f"{game.path}/map.svg?phase=F1901M").text).orders()
    assert ("FRANCE", "A PAR - PIC", "succeeds") in again and ("FRANCE", "A PAR - BUR", "succeeds") not in again


def test_a_finished_game_shows_its_final_position_last(api):
    game = new_game(api, start=SOLO_START)
    game.submit("FRANCE", ["A PIE - VEN"])
    game.director_action("adjudicate")
    state = finished(game)
    final = Picture(api.get(f"{game.path}/map.svg").text)
    assert final.root.attrib["data-phase"] == state["phase"] != "F1905M" and final.orders() == []
    assert final.one("data-supply-center", "VEN").attrib["data-owner"] == "FRANCE"
    solo = Picture(api.get(f"{game.path}/map.svg?phase=F1905M").text)
    assert ("FRANCE", "A PIE - VEN", "succeeds") in solo.orders()
