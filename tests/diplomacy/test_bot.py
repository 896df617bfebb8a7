"""The bot (contracts/bots.md): whole games of seven bots in every variant, every
order valid, the same seed the same orders, every kind of phase, and DumbBot
(its opponent model) as valid as it."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from adjudicator.diplomacy import (VARIANTS, RequestError, adjudicate, bot_orders, check_orders,
                                   initial_position, powers_to_order, variant_info)
from adjudicator.diplomacy.dumbbot import dumbbot_orders

#: a small budget keeps the whole games quick; the benchmark plays the default one
QUICK = 12


def valid(position: dict, power: str, orders: list[str]) -> bool:
    return all(r["valid"] for r in check_orders(position, power, orders))


def play(variant: str, years: int, choose) -> tuple[list[str], dict]:
    """A game of ``choose`` for every power, to its end: the phases played, and
    the last response.  Every order is checked valid, and adjudicated as valid."""
    position = initial_position(variant)
    if variant == "two_player_1914":  # the coin toss: Italy joins player 1 in 1915
        position["rules"] = {"italy_joins": 1}
    last_year = int(variant_info(variant)["start_phase"][1:5]) + years - 1
    phases = []
    while True:
        orders = {}
        for power in powers_to_order(position):
            orders[power] = choose(position, power, f"{position['phase']}:{power}")
            assert valid(position, power, orders[power]), (position["phase"], power, orders)
        resp = adjudicate({**position, "orders": orders})
        assert not [r for r in resp["results"] if r["outcome"] == "invalid"]
        phases.append(position["phase"])
        position = resp["next"]
        if "winner" in resp or int(position["phase"][1:5]) > last_year:
            return phases, resp


def ended(variant: str, years: int, last: dict) -> bool:
    """The game's last phase was played: the next one is in the year after it."""
    first = int(variant_info(variant)["start_phase"][1:5])
    return last["next"]["phase"] == f"S{first + years}M"


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_game_of_seven_bots_runs_to_its_end(variant):
    phases, last = play(variant, 2, lambda pos, power, seed: bot_orders(pos, power, seed, QUICK))
    assert "winner" in last or ended(variant, 2, last)
    assert {p[-1] for p in phases} >= {"M", "A"}


def test_two_player_bots_keep_out_of_italy_until_1915_and_order_italy_after():
    position = {**initial_position("two_player_1914"), "rules": {"italy_joins": 1}}
    italian = {"PIE", "VEN", "TUS", "ROM", "APU", "NAP"}
    for power in powers_to_order(position):
        for order in bot_orders(position, power, 1, QUICK):
            assert not italian & {w[:3] for w in order.split()[2:]}, order
    spring_1915 = {**position, "phase": "S1915M"}
    assert "ITALY" in powers_to_order(spring_1915)
    orders = bot_orders(spring_1915, "ITALY", 1, QUICK)
    assert len(orders) == 3 and valid(spring_1915, "ITALY", orders)


@pytest.mark.parametrize("variant", VARIANTS)
def test_dumbbot_plays_a_whole_game_too(variant):
    phases, last = play(variant, 3, dumbbot_orders)
    assert "winner" in last or ended(variant, 3, last)


def test_the_same_seed_gives_the_same_orders():
    position = initial_position()
    for power in ("FRANCE", "RUSSIA"):
        first = bot_orders(position, power, seed=7)
        assert bot_orders(position, power, seed=7) == first
        assert valid(position, power, first) and len(first) == len(position["units"][power])
    assert (dumbbot_orders(position, "TURKEY", seed=3)
            == dumbbot_orders(position, "TURKEY", seed=3))


GAME = """
from adjudicator.diplomacy import adjudicate, bot_orders, initial_position, powers_to_order
position = initial_position()
while position["phase"] != "S1902M":
    orders = {p: bot_orders(position, p, position["phase"] + p, 12) for p in powers_to_order(position)}
    print(orders)
    position = adjudicate({**position, "orders": orders})["next"]
print(position["units"], position["phase"])
"""


def test_the_same_seeds_give_the_same_game_in_any_process():
    """Nothing hangs on the order of a set of strings (it changes with PYTHONHASHSEED)."""
    root = Path(__file__).resolve().parents[2]
    runs = [subprocess.Popen([sys.executable, "-c", GAME], cwd=root, text=True,
                             stdout=subprocess.PIPE, env={**os.environ, "PYTHONHASHSEED": seed})
            for seed in ("1", "2")]
    games = {run.communicate(timeout=120)[0] for run in runs}
    assert [run.returncode for run in runs] == [0, 0]
    assert len(games) == 1 and games.pop().rstrip().endswith("S1902M")


def test_the_bot_takes_centres_from_six_holders():
    """France against six powers that only hold: by the end of 1902 it has
    taken neutral centres (three at the start)."""
    position = initial_position()
    while int(position["phase"][1:5]) <= 1902:
        orders = {"FRANCE": bot_orders(position, "FRANCE", position["phase"])}
        position = adjudicate({**position, "orders": orders})["next"]
    assert len(position["centers"]["FRANCE"]) >= 6, position["centers"]


def test_retreats_go_somewhere_useful_or_disband():
    position = {"variant": "standard", "phase": "F1901R",
                "units": {"GERMANY": ["A KIE"], "FRANCE": ["A MUN", "A BUR"]},
                "centers": {"GERMANY": ["BER", "KIE", "MUN"]},
                "dislodged": {"GERMANY": [{"unit": "A MUN", "attacked_from": "BUR"}],
                              "FRANCE": []},
                "retreat_options": {"A MUN": ["BER", "BOH", "RUH", "SIL", "TYR"]}}
    orders = bot_orders(position, "GERMANY", 1)
    assert len(orders) == 1 and orders[0].startswith("A MUN R ")
    assert valid(position, "GERMANY", orders)
    boxed = {"variant": "standard", "phase": "F1901R",
             "units": {"ENGLAND": ["F ENG", "A LON", "A LVP"], "FRANCE": ["F IRI"]},
             "centers": {},
             "dislodged": {"ENGLAND": [{"unit": "F WAL", "attacked_from": "IRI"}]}}
    assert bot_orders(boxed, "ENGLAND", 1) == ["F WAL D"]  # every other place taken
    assert bot_orders(boxed, "FRANCE", 1) == []


def test_builds_on_distinct_sites_and_disbands_what_is_due():
    build = {"variant": "standard", "phase": "W1901A",
             "units": {"RUSSIA": ["A WAR"], "TURKEY": ["A BUL"]},
             "centers": {"RUSSIA": ["MOS", "WAR", "SEV", "STP", "RUM", "SWE"],
                         "TURKEY": ["BUL"]}}
    orders = bot_orders(build, "RUSSIA", 1)
    assert len(orders) == 3 and valid(build, "RUSSIA", orders)
    assert len({o.split()[1][:3] for o in orders}) == 3  # MOS, SEV, STP
    disband = {"variant": "standard", "phase": "W1901A",
               "units": {"AUSTRIA": ["A VIE", "A BUD", "F TRI", "A SER"]},
               "centers": {"AUSTRIA": ["VIE", "BUD"]}}
    orders = bot_orders(disband, "AUSTRIA", 1)
    assert len(orders) == 2 and valid(disband, "AUSTRIA", orders)
    assert all(o.endswith(" D") for o in orders)
    assert bot_orders(build, "TURKEY", 1) == []  # BUL is no home centre: nothing to build


def test_nothing_to_order_and_a_bad_power():
    six = initial_position("six_player")
    assert bot_orders(six, "ITALY", 1) == []  # neutral
    with pytest.raises(RequestError) as err:
        bot_orders(initial_position(), "PRUSSIA", 1)
    assert err.value.field == "power"
