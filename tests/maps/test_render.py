"""The renderer against the DATC positions and the rulebook's examples: every
order kind and every outcome has its mark and its data attributes
(docs/maps.md, "What the SVG says, for programs")."""
from __future__ import annotations

import math

import pytest

from adjudicator.diplomacy import adjudicate, initial_position
from adjudicator.diplomacy.board import BOARD
from maps import palette, render_png, render_request, render_svg
from maps.render import DISLODGED_OFFSET, point
from tests.diplomacy.test_datc import CASES

from .svg import Picture, lines, points, polygons, shapes


def steps(case):
    """(request, response) for each step of a DATC case, later steps played on the previous ``next``."""
    first = case["steps"][0]["request"]
    request = first
    for n, step in enumerate(case["steps"]):
        if n:
            request = {**response["next"], "variant": first["variant"], "orders": step["orders"]}
            if "rules" in first or "rules" in step:
                request["rules"] = {**first.get("rules", {}), **step.get("rules", {})}
        response = adjudicate(request)
        yield request, response


def check_picture(request, response):
    """What the contract promises a program reading the picture."""
    pic = Picture(render_svg(request, response["results"]))
    assert pic.root.attrib["data-phase"] == request["phase"]
    assert pic.root.attrib["data-variant"] == request["variant"]
    assert {e.attrib["data-province"] for e in pic.all("data-province")} == set(BOARD.provinces)
    owner = {c[:3]: p for p, cs in request.get("centers", {}).items() for c in cs}
    for sc in BOARD.supply_centers:
        assert pic.one("data-supply-center", sc).attrib["data-owner"] == owner.get(sc, "")
    dislodged = {r["order"].split()[1] for r in response["results"] if r["outcome"] == "dislodged"}
    for power, units in request.get("units", {}).items():
        for unit in units:
            drawn = [e for e in pic.all("data-unit", unit) if "data-dislodged" not in e.attrib
                     or unit.split()[1] in dislodged or request["phase"].endswith("R")]
            assert drawn and drawn[0].attrib["data-power"] == power, unit
            assert (drawn[0].attrib.get("data-dislodged") == "true") == (unit.split()[1] in dislodged), unit
    for power, entries in (request.get("dislodged") or {}).items():
        for entry in entries:
            units = [e for e in pic.all("data-unit", entry["unit"]) if e.attrib.get("data-dislodged") == "true"]
            assert units and units[0].attrib["data-power"] == power
    # every result, once, with its outcome; failures drawn differently
    assert sorted(pic.orders()) == sorted((r["power"], r["order"], r["outcome"]) for r in response["results"])
    for e in pic.all("data-order"):
        failed = e.attrib["data-outcome"] not in ("succeeds", "dislodged")
        if e.tag.endswith("g"):  # drawn on the map (a text line in the legend otherwise)
            assert (e.attrib.get("opacity") == "0.6") == failed, e.attrib
    bounced = {r["order"].split(" - ")[1][:3] for r in response["results"]
               if " - " in r["order"] and " S " not in r["order"] and " C " not in r["order"]
               and r.get("code") == "bounced"}
    assert {e.attrib["data-bounce"] for e in pic.all("data-bounce")} == bounced
    return pic


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_every_datc_position_is_drawn_with_its_orders_and_outcomes(case):
    for request, response in steps(case):
        check_picture(request, response)


# -- the marks, one by one, on the rulebook's kinds of orders -------------------
START = initial_position()


def movement(units, orders, centers=None):
    request = {"variant": "standard", "phase": "S1901M", "units": units,
               "centers": centers if centers is not None else START["centers"], "orders": orders}
    response = adjudicate(request)
    return request, response, check_picture(request, response)


def test_move_support_and_bounce():
    """Rulebook: A PAR - BUR supported by A MAR succeeds; A MUN - BUR bounces."""
    _, _, pic = movement({"FRANCE": ["A PAR", "A MAR"], "GERMANY": ["A MUN"]},
                         {"FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR"], "GERMANY": ["A MUN - BUR"]})
    move = pic.one("data-order", "A PAR - BUR")
    assert move.attrib["data-outcome"] == "succeeds" and move.attrib["data-power"] == "FRANCE"
    assert lines(move) and polygons(move)  # a shaft and a head
    support = pic.one("data-order", "A MAR S A PAR - BUR")
    dashed = [ln for ln in lines(support) if ln.attrib.get("stroke-dasharray")]
    assert dashed, "a support is a dashed line"
    (px, py), (bx, by) = point("PAR"), point("BUR")
    x2, y2 = points(dashed[-1])[-1]
    assert math.dist((x2, y2), ((px + bx) / 2, (py + by) / 2)) < 0.1, "it ends on the move's arrow"
    bounce = pic.one("data-order", "A MUN - BUR")
    assert bounce.attrib["data-outcome"] == "fails" and bounce.attrib["data-reason"] == "bounced"
    assert pic.one("data-bounce", "BUR") is not None  # shown in the province it happened in


def test_support_hold_hold_convoy_and_dislodgement():
    """Rulebook: a supported hold; a convoy across the North Sea; a dislodged unit."""
    _, _, pic = movement(
        {"ENGLAND": ["F NTH", "A YOR", "F LON"], "GERMANY": ["A HOL", "F HEL", "F DEN"], "FRANCE": ["F BEL"]},
        {"ENGLAND": ["F NTH C A YOR - HOL", "A YOR - HOL", "F LON H"],
         "GERMANY": ["A HOL H", "F HEL - NTH", "F DEN S F HEL - NTH"], "FRANCE": ["F BEL S A HOL"]})
    held = pic.one("data-order", "F BEL S A HOL")
    ring = [c for c in shapes(held, "circle") if c.attrib.get("fill") == "none"]
    assert ring and (float(ring[0].attrib["cx"]), float(ring[0].attrib["cy"])) == point("HOL")
    hold = pic.one("data-order", "F LON H")
    assert any(len(points(p)) == 8 for p in polygons(hold)), "an octagon round the unit"
    convoy = pic.one("data-order", "F NTH C A YOR - HOL")
    assert convoy.attrib["data-outcome"] == "dislodged"
    assert any("q" in p.attrib["d"] for p in shapes(convoy, "path")), "the convoy's wave mark"
    unit = [e for e in pic.all("data-unit", "F NTH")][0]
    assert unit.attrib["data-dislodged"] == "true"
    x, y = point("NTH")
    xs = [px for px, _py in points(polygons(unit)[0])]
    assert math.isclose(sum(xs) / len(xs), x + DISLODGED_OFFSET[0], abs_tol=0.5), "offset from its province"
    assert pic.one("data-order", "A YOR - HOL VIA").attrib["data-outcome"] == "fails"


def test_retreat_and_disband_in_a_retreat_phase():
    request = {"variant": "standard", "phase": "F1901R",
               "units": {"ITALY": ["A TRI"], "AUSTRIA": ["A SER"]}, "centers": START["centers"],
               "dislodged": {"AUSTRIA": [{"unit": "F TRI", "attacked_from": "VEN"},
                                         {"unit": "A BUD", "attacked_from": "GAL"}]},
               "units_extra": None,
               "orders": {"AUSTRIA": ["F TRI R ALB", "A BUD D"]}}
    request.pop("units_extra")
    request["units"]["RUSSIA"] = ["A BUD"]
    response = adjudicate(request)
    pic = check_picture(request, response)
    retreat = pic.one("data-order", "F TRI R ALB")
    assert retreat.attrib["data-outcome"] == "succeeds"
    assert any(ln.attrib.get("stroke") == "#FFFFFF" for ln in lines(retreat)), "a hollow arrow"
    start = points(lines(retreat)[0])[0]
    tx, ty = point("TRI")
    assert math.dist(start, (tx + DISLODGED_OFFSET[0], ty + DISLODGED_OFFSET[1])) < 20, "from the offset unit"
    disband = pic.one("data-order", "A BUD D")
    assert len(lines(disband)) == 4  # a cross, haloed


def test_builds_waives_and_disbands_in_winter():
    request = {"variant": "standard", "phase": "W1901A",
               "units": {"FRANCE": ["A PAR"], "ITALY": ["A ROM", "A VEN", "F NAP", "A TUN"],
                         "GERMANY": ["A MUN", "A BER", "F KIE", "A HOL"]},
               "centers": {"FRANCE": ["PAR", "MAR", "BRE"], "ITALY": ["ROM", "VEN", "NAP"],
                           "GERMANY": ["MUN", "BER", "KIE", "HOL"]},
               "orders": {"FRANCE": ["F BRE B", "WAIVE"], "ITALY": ["A TUN D"]}}
    response = adjudicate(request)
    pic = check_picture(request, response)
    build = pic.one("data-order", "F BRE B")
    assert build.attrib["data-outcome"] == "succeeds"
    assert [u.attrib["data-unit"] for u in build.iter() if "data-unit" in u.attrib] == ["F BRE"]
    assert any(c.attrib.get("stroke-dasharray") for c in shapes(build, "circle")), "a build ring"
    waive = pic.one("data-order", "WAIVE")
    assert waive.attrib["data-power"] == "FRANCE" and waive.tag.endswith("text")
    assert "WAIVE" in "".join(waive.itertext())
    assert pic.one("data-order", "A TUN D").attrib["data-outcome"] == "succeeds"


def test_an_invalid_order_is_still_shown():
    _, response, pic = movement({"ENGLAND": ["F NTH"]}, {"ENGLAND": ["F North Sea - Picardy", "A XXX - YYY"]})
    outcomes = {o: out for _p, o, out in pic.orders()}
    assert set(outcomes.values()) == {"invalid"} and len(outcomes) == len(response["results"])


def test_what_players_typed_is_text_in_the_picture_never_markup():
    typed = '"><script>alert(1)</script><x y="'
    svg = render_request({"variant": "standard", "phase": "S1901M", "units": {"FRANCE": ["A PAR"]}, "centers": {},
                          "orders": {"FRANCE": [typed]}}, title='<b onload="x">Game</b>')
    pic = Picture(svg)  # well-formed XML
    assert not [e for e in pic.root.iter() if e.tag.split("}")[-1] in ("script", "b", "x")]
    assert any(typed in e.attrib["data-order"] for e in pic.all("data-order"))  # read back as it was typed
    assert "<script>" not in svg and '<b onload' not in svg


def test_the_open_phase_shows_the_position_only():
    pic = Picture(render_svg(START))
    assert pic.orders() == [] and pic.all("data-bounce") == []
    assert len(pic.all("data-unit")) == 22
    assert pic.root.attrib["data-phase"] == "S1901M"
    title = pic.root.find("{http://www.w3.org/2000/svg}title")
    assert "Spring 1901, movement" in title.text


def test_italy_is_drawn_closed_in_the_two_player_game_until_1915():
    from adjudicator.diplomacy import initial_position as start
    closed = Picture(render_svg(start("two_player_1914")))
    assert closed.one("data-province", "ROM").attrib["fill"] == palette.IMPASSABLE
    opened = Picture(render_svg({**start("two_player_1914"), "phase": "S1915M"}))
    assert opened.one("data-province", "ROM").attrib["fill"] != palette.IMPASSABLE


def test_png_is_1200_pixels_wide_unless_asked():
    svg = render_request({"variant": "standard", "phase": "S1901M", "units": {"FRANCE": ["A PAR"]},
                          "centers": {}, "orders": {"FRANCE": ["A PAR - BUR"]}})
    for width in (1200, 600):
        png = render_png(svg, width)
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        assert int.from_bytes(png[16:20], "big") == width
    with pytest.raises(ValueError):
        render_png(svg, 10)
