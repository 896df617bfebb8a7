"""Options (contracts/options.md): every option is valid, and every valid order
is an option.

The judge is ``check_orders`` (what the orders endpoint stores as valid), fed
candidates made from the board alone (tests/diplomacy/options_kit.py): every
unit with every kind of order, every place and every other unit.  The one
kind of order check_orders accepts that the options leave out on purpose is a
support or convoy of a move nobody may order (spec 8.2.3, DATC 6.D.22-24:
legal but void); ``void_support`` names it by asking check_orders about the
move itself.

On every DATC position every option is judged, and the candidates of one
unit (a different one each position) with one other unit; on 1,000
random-game positions (100 outside CI: tests/budget.py) every power's options are computed, a sample of them
judged, and one unit's candidates judged the same way (in winter and retreat
phases: all the power's candidates).  ``OPTIONS_EXHAUSTIVE=1`` judges every
option, and on the DATC positions every unit with every other unit, on the
random ones every unit with one other (minutes).
"""
import os
import random

import pytest

from adjudicator.diplomacy import (VARIANTS, RequestError, adjudicate, board_data, initial_position,
                                   options, options_by_power, powers_to_order)
from adjudicator.diplomacy.board import BOARD
from adjudicator.diplomacy.variants import VARIANT_TABLE
from tests.budget import DEEP, examples
from tests.diplomacy.options_kit import (Judge, candidates, crowded_positions, datc_positions, flat,
                                         option_game_positions, random_positions)

EXHAUSTIVE = os.environ.get("OPTIONS_EXHAUSTIVE") == "1"
DATC = datc_positions()
# positions of random games, and of games played by options: 500 each in CI (40 phases a game); outside
# CI a tenth, from shorter games so that every variant is played
GAMES, PHASES = (500, 40) if DEEP else (examples(500), 8)
RANDOM = random_positions(GAMES, PHASES) + option_game_positions(GAMES, PHASES)
CHUNKS = 4


def sound(judge: Judge, power: str, opts: dict, sample: int | None = None,
          rng: random.Random | None = None) -> None:
    """Each option (or ``sample`` of them) is accepted, in the form it is written."""
    position = judge.position
    orders = flat(opts, position["phase"])
    assert len(orders) == len(set(orders)), orders
    if sample is not None and len(orders) > sample:
        orders = (rng or random).sample(orders, sample)
    ok = judge.accepted(power, orders)
    wrong = [(o, ok.get(o)) for o in orders if ok.get(o) != o]
    assert not wrong, f"{position['phase']} {power}: not valid as written: {wrong[:5]}"


def complete(judge: Judge, power: str, opts: dict, cands: list[str]) -> None:
    """Each candidate check_orders accepts is an option, or a void support."""
    position = judge.position
    offered = set(flat(opts, position["phase"]))
    missing = [(c, canon) for c, canon in judge.accepted(power, cands).items()
               if canon not in offered and not judge.void_support(canon)]
    assert not missing, f"{position['phase']} {power}: valid but not offered: {missing[:5]}"


def shape(position: dict, power: str, opts: dict) -> None:
    """Movement and retreats: keyed by the unit each order is for."""
    if position["phase"].endswith("A"):
        assert set(opts) >= {"builds", "sites", "disbands", "waive", "orders"}
        for site, builds in opts["sites"].items():
            assert all(b.split()[1][:3] == site and b.endswith(" B") for b in builds)
        assert opts["waive"] == (opts["builds"] > 0) == ("WAIVE" in opts["orders"])
        return
    for unit, orders in opts.items():
        assert all(o.startswith(unit + " ") for o in orders), (unit, orders)
        assert orders[0] in (f"{unit} H", f"{unit} D")


def some_candidates(position: dict, power: str, opts: dict, rng: random.Random,
                    everyone: bool = False) -> list[str]:
    """Every candidate of the power (winter, retreats, or ``everyone``), or
    of one unit (every unit when exhaustive) with one other unit."""
    if everyone or position["phase"][-1] in "AR":
        return candidates(position, power)
    units = [u for us in position["units"].values() for u in us]
    mine = sorted(opts) if EXHAUSTIVE else rng.sample(sorted(opts), min(1, len(opts)))
    return candidates(position, power, mine, rng.sample(units, 1))


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_datc_positions_every_option_valid_every_valid_order_an_option(chunk):
    for i in range(chunk, len(DATC), CHUNKS):
        _case, position = DATC[i]
        rng = random.Random(i)
        judge = Judge(position)
        for power in powers_to_order(position):
            opts = options(position, power)
            shape(position, power, opts)
            sound(judge, power, opts)
            complete(judge, power, opts, some_candidates(position, power, opts, rng, EXHAUSTIVE))


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_positions_options_valid_and_complete(chunk):
    for i in range(chunk, len(RANDOM), CHUNKS):
        position = RANDOM[i]
        rng = random.Random(i)
        found = options_by_power(position, list(BOARD.powers))["powers"]
        judge = Judge(position)
        for power, opts in found.items():
            shape(position, power, opts)
            sound(judge, power, opts, sample=None if EXHAUSTIVE else 6, rng=rng)
        for power in powers_to_order(position) if EXHAUSTIVE else [
                rng.choice(powers_to_order(position) or list(BOARD.powers))]:
            complete(judge, power, found[power], some_candidates(position, power, found[power], rng))


def test_random_positions_cover_every_kind_of_phase_and_order():
    assert len(RANDOM) >= 2 * GAMES
    phases = {p["phase"][-1] for p in RANDOM}
    assert phases == {"M", "R", "A"}
    assert {p["variant"] for p in RANDOM} == set(VARIANTS)
    kinds = set()
    for position in RANDOM[GAMES::7 if DEEP else 1]:
        for opts in options_by_power(position)["powers"].values():
            for o in flat(opts, position["phase"]):
                words = o.split()
                kinds.add(words[2] if len(words) > 2 else o)
                kinds.add("VIA" if words[-1] == "VIA" else "")
    assert kinds >= {"H", "-", "VIA", "S", "C", "R", "D", "B", "WAIVE"}


def test_crowded_positions_every_option_valid_and_convoys_complete():
    """Every province occupied: the longest convoy chains there are."""
    for position in crowded_positions(1):
        judge = Judge(position)
        at_sea = [u for us in position["units"].values() for u in us
                  if u.startswith("F") and BOARD.is_sea(u.split()[1][:3])]
        armies = [u for us in position["units"].values() for u in us if u.startswith("A")]
        for power in BOARD.powers:
            opts = options(position, power)
            sound(judge, power, opts)
            mine = [u for u in opts if u in at_sea][:1] + [u for u in opts if u in armies][:1]
            complete(judge, power, opts, candidates(position, power, mine, armies[:6]))


def test_every_option_submitted_to_adjudicate_is_not_invalid():
    """What adjudicate makes of them: one option per unit, all powers at once."""
    for _case, position in DATC[::3] + [(None, p) for p in RANDOM[::40]]:
        found = options_by_power(position)["powers"]
        rng = random.Random(len(found))
        orders = {}
        for power, opts in found.items():
            if position["phase"].endswith("A"):
                orders[power] = [rng.choice(b) for b in opts["sites"].values()][:opts["builds"]]
                orders[power] += opts["disbands"][:-opts["builds"]] if opts["builds"] < 0 else []
            else:
                orders[power] = [rng.choice(os) for os in opts.values()]
        results = adjudicate({**position, "orders": orders})["results"]
        assert not [r for r in results if r["outcome"] == "invalid"]


# -- the shapes, by example -------------------------------------------------------
def test_movement_options_of_the_opening_england():
    assert options(initial_position(), "ENGLAND")["A LVP"] == [
        "A LVP H", "A LVP - CLY", "A LVP - EDI", "A LVP - WAL", "A LVP - YOR", "A LVP S F EDI",
        "A LVP S F EDI - CLY", "A LVP S F EDI - YOR", "A LVP S F LON - WAL", "A LVP S F LON - YOR"]


def test_convoys_supports_of_convoyed_moves_and_coasts():
    position = {"phase": "S1901M", "units": {
        "ENGLAND": ["A LON", "F NTH", "F ENG"], "FRANCE": ["F MAO", "A PIC"], "RUSSIA": ["F BOT"]}}
    eng = options(position, "ENGLAND")
    assert "A LON - BEL VIA" in eng["A LON"] and "A LON - YOR VIA" in eng["A LON"]
    assert "A LON - YOR" in eng["A LON"] and "A LON - SPA VIA" in eng["A LON"]
    assert "F NTH C A LON - NWY" in eng["F NTH"] and "F NTH C A LON - BRE" not in eng["F NTH"]
    assert "F ENG C A LON - BRE" in eng["F ENG"] and "F ENG C A PIC - LON" in eng["F ENG"]
    # a fleet's support may name the coast or not (spec 8.2.3); an army's never does
    fra = options(position, "FRANCE")
    assert "F ENG S F MAO - BRE" in eng["F ENG"]
    assert "F ENG S A LON - BRE" not in eng["F ENG"]  # only ENG's own convoy gets it there
    assert "A PIC S A LON - BEL" in fra["A PIC"]
    assert {"F MAO H", "F MAO - SPA/NC", "F MAO - SPA/SC"} <= set(fra["F MAO"])
    assert "A PIC S A LON - BRE" in fra["A PIC"]
    assert not options(position, "ITALY")
    russia = options(position, "RUSSIA")["F BOT"]
    assert "F BOT - STP/SC" in russia and "F BOT - STP/NC" not in russia


def test_support_of_a_split_coast_move_with_and_without_the_coast():
    position = {"phase": "S1901M", "units": {"FRANCE": ["F MAO", "F GAS"], "ITALY": ["F WES"]}}
    gas = options(position, "FRANCE")["F GAS"]
    assert [o for o in gas if " S F MAO" in o] == [  # GAS reaches SPA, so either coast
        "F GAS S F MAO", "F GAS S F MAO - BRE", "F GAS S F MAO - SPA", "F GAS S F MAO - SPA/NC",
        "F GAS S F MAO - SPA/SC"]
    wes = options(position, "ITALY")["F WES"]
    assert "F WES S F MAO - NAF" in wes and "F WES S F MAO - BRE" not in wes


def test_a_fleet_does_not_support_a_move_only_its_own_convoy_makes():
    """DATC 6.D.31: the army could reach ARM only through BLA's convoy."""
    position = {"phase": "S1901M", "units": {"AUSTRIA": ["A RUM"], "TURKEY": ["F BLA", "F ION"]}}
    bla = options(position, "TURKEY")["F BLA"]
    assert "F BLA S A RUM - ARM" not in bla and "F BLA C A RUM - ARM" in bla
    assert "F BLA S A RUM - BUL" in bla  # it could walk there
    assert "A RUM - ARM VIA" in options(position, "AUSTRIA")["A RUM"]


def test_retreat_options():
    position = {"phase": "F1901R", "units": {"GERMANY": ["A BUR", "A RUH"], "FRANCE": ["A MAR"]},
                "dislodged": {"FRANCE": [{"unit": "A PAR", "attacked_from": "BUR"}],
                              "RUSSIA": [{"unit": "F STP/SC", "attacked_from": None}]},
                "contested": ["PIC"]}
    assert options(position, "FRANCE") == {"A PAR": ["A PAR D", "A PAR R BRE", "A PAR R GAS"]}
    assert options(position, "RUSSIA") == {
        "F STP/SC": ["F STP/SC D", "F STP/SC R BOT", "F STP/SC R FIN", "F STP/SC R LVN"]}
    assert options(position, "GERMANY") == {}


def test_adjustment_options():
    position = {"phase": "W1901A", "units": {"RUSSIA": ["A WAR"], "AUSTRIA": ["A VIE", "A BUD", "F TRI"]},
                "centers": {"RUSSIA": ["MOS", "STP", "WAR", "SEV"], "AUSTRIA": ["VIE", "BUD"]}}
    assert options(position, "RUSSIA") == {
        "builds": 3,
        "sites": {"MOS": ["A MOS B"], "SEV": ["A SEV B", "F SEV B"],
                  "STP": ["A STP B", "F STP/NC B", "F STP/SC B"]},
        "disbands": [], "waive": True,
        "orders": ["A MOS B", "A SEV B", "F SEV B", "A STP B", "F STP/NC B", "F STP/SC B", "WAIVE"]}
    assert options(position, "AUSTRIA") == {
        "builds": -1, "sites": {}, "disbands": ["A BUD D", "A VIE D", "F TRI D"], "waive": False,
        "orders": ["A BUD D", "A VIE D", "F TRI D"]}
    assert options(position, "FRANCE")["orders"] == []


def test_impassable_italy_before_1915():
    start = initial_position("two_player_1914")
    opts = options_by_power(start)["powers"]
    assert "ITALY" not in opts
    every = [o for power in opts.values() for os in power.values() for o in os]
    italian = {"PIE", "VEN", "TUS", "ROM", "APU", "NAP"}
    assert not [o for o in every if set(o.replace("/", " ").split()) & italian]
    assert "F TRI - VEN" in options({**start, "phase": "S1915M"}, "AUSTRIA")["F TRI"]  # open now
    assert not options(start, "ITALY")  # neutral


def test_a_neutral_units_moves_are_not_supported_but_its_hold_is():
    position = {"variant": "six_player", "phase": "S1901M",
                "units": {"ITALY": ["A VEN"], "AUSTRIA": ["A TRI"]}}
    tri = options(position, "AUSTRIA")["A TRI"]
    assert "A TRI S A VEN" in tri and not [o for o in tri if o.startswith("A TRI S A VEN -")]
    assert options(position, "ITALY") == {}


def test_options_by_power_answers_the_phase_and_the_powers_asked():
    got = options_by_power(initial_position(), ["france", "ENGLAND"])
    assert got["phase"] == "S1901M" and list(got["powers"]) == ["FRANCE", "ENGLAND"]
    assert list(options_by_power(initial_position())["powers"]) == list(BOARD.powers)


@pytest.mark.parametrize("call, field", [
    (lambda: options(initial_position(), "SPAIN"), "power"),
    (lambda: options_by_power(initial_position(), ["FRANCE", 3]), "powers[1]"),
    (lambda: options_by_power(initial_position(), "FRANCE"), "powers"),
    (lambda: options({"phase": "S1901M", "units": {"FRANCE": ["A XXX"]}}, "FRANCE"), "units.FRANCE[0]"),
    (lambda: options({"phase": "X"}, "FRANCE"), "phase"),
    (lambda: board_data("nope"), "variant"),
])
def test_bad_requests_name_the_field(call, field):
    with pytest.raises(RequestError) as err:
        call()
    assert err.value.field == field


# -- the board as data ------------------------------------------------------------
@pytest.mark.parametrize("variant", VARIANTS)
def test_board_data_is_the_engines_board(variant):
    data = board_data(variant)
    v = VARIANT_TABLE[variant]
    assert data["powers"] == list(BOARD.powers) and data["year"] == v.start_year
    assert data["sides"] == [list(s) for s in v.players] and data["neutral"] == list(v.neutral)
    assert data["victory_centers"] == v.victory_centers
    kinds = {"land": "inland", "coast": "coastal", "sea": "sea"}
    closed = v.impassable_in(v.start_year, "S")
    assert [p["id"] for p in data["provinces"]] == list(BOARD.provinces)
    for p in data["provinces"]:
        prov = BOARD.provinces[p["id"]]
        assert p["name"] == prov.name and p["centre"] == prov.supply_center and p["home"] == prov.home
        assert kinds[p.get("terrain", p["type"])] == prov.kind
        assert (p["type"] == "impassable") == (p["id"] in closed)
        assert [f"{p['id']}/{c}" for c in p["coasts"]] == list(BOARD.coasts.get(p["id"], ()))
    army = {p: set(n) for p, n in data["adjacency"]["army"].items()}
    assert army == {p: set(n) for p, n in BOARD.army_adj.items() if not BOARD.is_sea(p)}
    fleet = {loc: set(n) for loc, n in data["adjacency"]["fleet"].items()}
    assert fleet == {loc: set(n) for loc, n in BOARD.fleet_adj.items()}
    assert data == board_data(variant)  # the same answer each time (an ETag can hash it)


def test_board_data_two_player_italy_opens_in_1915():
    italy = [p for p in board_data("two_player_1914")["provinces"] if p["home"] == "ITALY"]
    assert {p["type"] for p in italy} == {"impassable"}
    assert {p["passable_from"] for p in italy} == {"S1915M"}
    assert all(p["type"] != "impassable" for p in board_data("standard")["provinces"])
