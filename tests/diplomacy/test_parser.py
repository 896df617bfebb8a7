"""Spec 7.3-7.8 and the contract's order table: liberal input, canonical output."""
import pytest

from adjudicator.diplomacy import check_orders, initial_position
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
    ("A London - North Sea - Belgium", "M", "LON", "BEL"),  # spec E24: path ignored
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
