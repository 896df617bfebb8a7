"""A property of press (the press contract, "Read"): for any sequence of messages among any groups,
grey or white, broadcast, fake broadcast or private, each power's GET /press holds exactly the
messages it sent or received and the broadcasts, oldest first; ``after`` gives exactly the later
ones; and what each reader sees of a message is what the contract lets it see."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.budget import examples

from tests.service.gamekit import POWERS, new_game

GROUP = st.one_of(st.just("all"), st.sets(st.sampled_from(POWERS), min_size=1, max_size=6))
MESSAGE = st.tuples(st.sampled_from(POWERS), GROUP, st.booleans(), st.booleans())


@settings(max_examples=examples(8), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(messages=st.lists(MESSAGE, max_size=12), cut=st.integers(0, 12))
def test_each_power_reads_exactly_what_it_sent_or_received_and_the_broadcasts(api, messages, cut):
    game = new_game(api, press={"grey": "allowed", "fake_broadcast": True})
    truth = {}  # id -> (sender, recipients, grey, fake)
    for sender, group, grey, fake in messages:
        to = "all" if group == "all" else sorted(group - {sender})
        if not to:
            continue
        fake = fake and to != "all"
        resp = api.post(f"{game.path}/press", json={"to": to, "body": f"from {sender}", "grey": grey,
                                                    "fake_broadcast": fake}, token=game.tokens[sender])
        assert resp.status_code == 201, resp.text
        truth[resp.json()["message"]["id"]] = (sender, to, grey, fake)

    for power in POWERS:
        expected = [mid for mid, (sender, to, _g, _f) in truth.items() if power == sender or to == "all" or power in to]
        seen = api.get(f"{game.path}/press", token=game.tokens[power]).json()["messages"]
        assert [m["id"] for m in seen] == expected
        for m in seen:
            sender, to, grey, fake = truth[m["id"]]
            mine = sender == power
            assert m["from"] == (sender if mine or not grey else None)
            assert m["to"] == (to if mine or not fake else "all")
            assert m["body"] == f"from {sender}" and m["grey"] == grey
        if expected:
            after = expected[min(cut, len(expected) - 1)]
            later = api.get(f"{game.path}/press", token=game.tokens[power], params={"after": after}).json()
            assert [m["id"] for m in later["messages"]] == expected[expected.index(after) + 1:]
