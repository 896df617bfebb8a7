"""Spec 7.3-7.8 and the contract's order table: liberal input, canonical output."""
import re

import pytest

from adjudicator.diplomacy import adjudicate, check_orders, initial_position
from adjudicator.diplomacy.orders import OrderError, parse


@pytest.mark.parametrize("text,kind,loc,dest", [
    ("England: F London - North Sea", "M", "LON", "NTH"),
    ("ENGLAND F LON - NTH", "M", "LON", "NTH"),
    ("Hol-Bel", "M", "HOL", "BEL"),
    ("a par -> bur", "M", "PAR", "BUR"),
    ("A PAR to BUR", "M", "PAR", "BUR"),
    ("F Nth - Nrg", "M", "NTH", "NWG"),
    ("F NAt - Mid", "M", "NAO", "MAO"),
    ("A NAf - Tun", "M", "NAF", "TUN"),
    ("F StP/nc - Bar", "M", "STP/NC", "BAR"),
    ("F St Petersburg(south coast) - Gulf of Bothnia", "M", "STP/SC", "BOT"),
    ("F Mid-Atlantic Ocean - Spain(nc)", "M", "MAO", "SPA/NC"),
    ("F MAO - Spain north coast", "M", "MAO", "SPA/NC"),
    ("F Tyrrhenian Sea - Ionian Sea", "M", "TYS", "ION"),
    ("A St. Petersburg - Moscow", "M", "STP", "MOS"),
    ("A London - North Sea - Belgium", "M", "LON", "BEL"),  # spec E24: a real route, read as VIA
    ("A Rhur - Belgium", "M", "RUH", "BEL"),  # rule 7.8b: a slip with one meaning
    ("F Kiel Retreats to Berlin", "R", "KIE", "BER"),
    ("A PAR R BUR", "R", "PAR", "BUR"),
    ("A Munich Holds", "H", "MUN", None),
    ("Build A Paris", "B", "PAR", None),
    ("Remove F Brest", "D", "BRE", None),
    ("F STP/NC B", "B", "STP/NC", None),
    ("A PAR D", "D", "PAR", None),
])
def test_rule_7_6_liberal_input(text, kind, loc, dest):
    p = parse(text)
    assert (p.kind, p.loc, p.dest) == (kind, loc, dest)


def test_via_and_by_convoy():
    assert parse("A LON - BEL VIA").via and parse("A LON - BEL via convoy").via
    assert not parse("A LON - BEL").via


def test_rule_7_4_nationality_in_support_is_ignored():
    p = parse("A SIL S Russian A WAR - PRU")
    assert (p.kind, p.tloc, p.dest) == ("S", "WAR", "PRU")
    assert parse("F Eng C English A Lon - Bel").tloc == "LON"


def test_appendix_b4_support_without_hyphen():
    p = parse("F Bla S A Bul Rum")
    assert (p.kind, p.loc, p.tloc, p.dest) == ("S", "BLA", "BUL", "RUM")


def test_datc_style_texts():
    assert parse("F North Sea Convoys A London - Belgium")[:6] == ("C", "F", "NTH", "A", "LON", "BEL")
    assert parse("A Liverpool Supports A Yorkshire - Yorkshire").dest == "YOR"
    assert parse("WAIVE").kind == "W"


@pytest.mark.parametrize("text,reason", [
    ("A LVP - YRK", "unknown province 'YRK'"),
    ("A Liv - Wal", "ambiguous province 'LIV'"),  # rule 7.6: Liverpool or Livonia
    ("F Gul - Bot", "ambiguous province 'GUL'"),
    ("", "empty order"),
])
def test_rule_7_8c_unreadable_orders(text, reason):
    with pytest.raises(OrderError, match=reason):
        parse(text)


def test_rule_7_6_tyr_is_tyrolia():
    assert parse("A Tyr H").loc == "TYR"
    assert parse("F Tys - Ion").loc == "TYS"


START = initial_position()


@pytest.mark.parametrize("power,text,canonical", [
    ("ENGLAND", "England: F London - North Sea", "F LON - NTH"),
    ("ENGLAND", "f lon -> eng", "F LON - ENG"),
    ("FRANCE", "Par-Bur", "A PAR - BUR"),
    ("FRANCE", "A Marseilles Supports A Paris - Burgundy", "A MAR S A PAR - BUR"),
    ("GERMANY", "A Mun S A Ber H", "A MUN S A BER"),
    ("RUSSIA", "F St Petersburg(south coast) - Gulf of Bothnia", "F STP/SC - BOT"),
    ("RUSSIA", "F STP - BOT", "F STP/SC - BOT"),  # E8: the unit's own coast may be left out
    ("TURKEY", "A Smyrna Holds", "A SMY H"),
    ("GERMANY", "PAR - BUR", None),  # another power's unit
])
def test_canonical_output(power, text, canonical):
    [r] = check_orders(START, power, [text])
    if canonical is None:
        assert not r["valid"] and "belongs to FRANCE" in r["reason"]
    else:
        assert r == {"input": text, "order": canonical, "valid": True, "reason": None}


def test_check_orders_reports_illegal_orders_with_reasons():
    rs = check_orders(START, "ENGLAND", ["F LON - PAR", "A LVP - YRK", "F EDI - NWG"])
    assert [r["valid"] for r in rs] == [False, False, True]
    assert rs[1]["order"] == "A LVP - YRK" and rs[1]["reason"] == "unknown province 'YRK'"


def test_rule_7_8f_two_different_orders_for_one_unit():
    rs = check_orders(START, "ENGLAND", ["F LON - NTH", "F LON - ENG"])
    assert [r["valid"] for r in rs] == [False, False]
    rs = check_orders(START, "ENGLAND", ["F LON - NTH", "F London - North Sea"])
    assert [r["valid"] for r in rs] == [True, True]  # an identical repeat counts once


def test_unreadable_order_still_belongs_to_its_unit():
    rs = check_orders(START, "ENGLAND", ["A LVP - YRK", "A LVP - YOR"])
    assert [r["valid"] for r in rs] == [False, False]
    assert rs[1]["reason"] == "several different orders for one unit"


@pytest.mark.parametrize("text", [
    "A PAR H", "A PAR - BUR", "F MAO - SPA/NC", "A LON - BEL VIA", "A BUR S A PAR",
    "A BUR S A PAR - MAR", "F NTH C A LON - BEL", "A PAR R BUR", "A PAR D", "F STP/NC B",
    "WAIVE", "F SPA/SC S F MAO - SPA/NC",
])
def test_fast_path_reads_canonical_forms_like_the_tokenizer(text, monkeypatch):
    from adjudicator.diplomacy import orders
    fast = orders._parse(text)
    monkeypatch.setattr(orders, "_fast", lambda t: None)
    assert orders._parse(text) == fast


# -- liberal reading never invents an order (issue 8) ---------------------------
@pytest.mark.parametrize("text,reason", [
    ("A PAR é", "cannot read 'é'"),  # was read as A PAR H
    ("A PAR - BUR!", "cannot read '!'"),
    ("A PAR H #2", "cannot read '#'"),
    ("A PAR - BUR - PIC", "not a convoy route (BUR is not a sea)"),  # was A PAR - PIC
    ("A LON - NTH - HOL - BEL", "not a convoy route (HOL is not a sea)"),
    ("A LON - MAO - BEL", "not a convoy route (MAO does not touch LON)"),
    ("A LON - NTH - MAR", "not a convoy route (NTH does not touch MAR)"),
    ("A PAR R BUR - PIC", "a retreat goes to one place"),
    ("A PAR - - BUR", "bad destination"),
    ("A PAR - BUR AND", "cannot read 'AND' at the end of the order"),
    ("A MUN S A BER VIA", "VIA without a destination"),
    ("A MUN S A BER - KIE H", "bad destination"),
    ("A PAR - BUR H", "bad destination"),
    ("A PAR - BUR France", "bad destination"),
])
def test_unreadable_text_is_never_rewritten(text, reason):
    with pytest.raises(OrderError, match=re.escape(reason)):
        parse(text)


@pytest.mark.parametrize("text,dest,via", [
    ("A LON - NTH - BEL", "BEL", True),  # a convoy route written out, as judges accept
    ("A London - North Sea - Belgium", "BEL", True),
    ("A LON NTH BEL", "BEL", True),
    ("A LON - ENG - MAO - POR VIA", "POR", True),
    ("A TUN - ION - NAP", "NAP", True),
    ("A SPA - LYO - MAR", "MAR", True),  # from either coast of Spain
    ("A PAR - BUR VIA CONVOY", "BUR", True),  # "via convoy" is how VIA is spelt out
    ("A PAR - BUR by convoy", "BUR", True),
])
def test_written_route_and_via_are_read_as_written(text, dest, via):
    p = parse(text)
    assert (p.kind, p.dest, p.via) == ("M", dest, via)


def test_an_unreadable_order_still_names_its_unit():
    start = initial_position()
    for text, reason in (("A PAR é", "cannot read 'é'"),
                         ("A PAR - BUR - PIC", "cannot parse order: not a convoy route (BUR is not a sea)")):
        resp = adjudicate(dict(start, orders={"FRANCE": [text]}))
        [mine] = [r for r in resp["results"] if r.get("unit") == "A PAR"]
        assert (mine["outcome"], mine["reason"]) == ("invalid", reason)
        assert "A PAR" in resp["next"]["units"]["FRANCE"]  # it held; nothing was invented


def test_via_convoy_between_inland_provinces_is_invalid_not_a_land_move():
    start = initial_position()
    [r] = check_orders(start, "FRANCE", ["A PAR - BUR VIA CONVOY"])
    assert not r["valid"] and r["order"] == "A PAR - BUR VIA"
    assert r["reason"] == "no convoy route possible from PAR to BUR"


def test_a_real_route_is_the_convoyed_move_it_names():
    resp = adjudicate({"phase": "S1901M", "units": {"ENGLAND": ["A LON", "F NTH"]},
                       "orders": {"ENGLAND": ["A LON - NTH - BEL", "F NTH C A LON - BEL"]}})
    assert [(r["order"], r["outcome"]) for r in resp["results"]] == [
        ("A LON - BEL VIA", "succeeds"), ("F NTH C A LON - BEL", "succeeds")]
    # a written route needs a convoy even to an adjacent province (E5), and a fleet cannot take it
    resp = adjudicate({"phase": "S1901M", "units": {"FRANCE": ["A BEL"], "ENGLAND": ["F NTH"]},
                       "orders": {"FRANCE": ["A BEL - NTH - HOL"]}})
    assert resp["results"][0]["order"] == "A BEL - HOL VIA"
    assert resp["results"][0]["outcome"] == "fails"
    [r] = check_orders({"phase": "S1901M", "units": {"ENGLAND": ["F LON", "F NTH"]}}, "ENGLAND",
                       ["F LON - NTH - BEL"])
    assert not r["valid"] and r["reason"] == "only armies can be convoyed"


@pytest.mark.parametrize("text, seas", [("A YOR - NWY via NTH", ["NTH"]), ("a yor - nwy VIA North Sea", ["NTH"]),
                                        ("A YOR - NWY via NTH, NWG", ["NTH", "NWG"])])
def test_a_route_written_after_the_destination_is_a_move_by_convoy(text, seas):
    """Judges read "A YOR - NWY via NTH" as "A YOR - NTH - NWY": the convoyed move it names."""
    parsed = parse(text)
    assert (parsed.dest, parsed.via) == ("NWY", True)


@pytest.mark.parametrize("text", ["A YOR - NWY via BUR", "A YOR - NWY via NWG", "A YOR - NTH - NWY via NTH"])
def test_a_route_after_the_destination_must_be_real(text):
    with pytest.raises(OrderError):
        parse(text)
