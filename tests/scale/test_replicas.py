"""REDIS_MIN_REPLICAS on a real primary and replica: a transaction returns once the replica has
it; without the replica it answers 503 with Retry-After, the change whole on the primary.  And the
Redis settings and URLs (workers/core/settings.py, workers/core/connection.py)."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from tests.scale.redis_set import RedisSet
from service.app import create_app
from workers.core import connection
from workers.core.settings import Settings, SettingsError
from workers.core.store import Store


@pytest.fixture
def pair(tmp_path):
    redis_set = RedisSet(tmp_path, sentinels=False)
    yield redis_set
    redis_set.close()


def store_on(redis_set: RedisSet) -> Store:
    url = f"redis://127.0.0.1:{redis_set.ports['a']}/0"
    return Store(url, Settings.from_env({"REDIS_URL": url, "REDIS_MIN_REPLICAS": "1", "REDIS_REPLICA_TIMEOUT": "0.3",
                                         "RATE_LIMITS": "off"}))


def test_a_transaction_returns_once_the_replica_has_it(pair):
    store, replica = store_on(pair), pair.client("b")
    for n in range(20):  # read on the replica at once: no waiting but the transaction's own
        def body(pipe, n=n):
            pipe.multi()
            pipe.hset("counted", mapping={"n": n, "twice": 2 * n})
        store.transact(["counted"], body)
        assert replica.hgetall("counted") == {"n": str(n), "twice": str(2 * n)}


def test_without_the_replica_a_change_answers_503_and_is_kept_whole_on_the_primary(pair):
    client = create_app(store=store_on(pair)).test_client()
    assert client.post("/v1/games", json={}).status_code == 201
    pair.kill("b")
    resp = client.post("/v1/games", json={"name": "unreplicated"})
    assert resp.status_code == 503 and resp.headers["Retry-After"] == "2"
    assert "may or may not have been applied" in resp.get_json()["detail"]
    [game] = [g for g in client.get("/v1/games?status=forming").get_json()["games"] if g["name"] == "unreplicated"]
    assert client.get(f"/v1/games/{game['id']}").get_json()["status"] == "forming"  # record and lobby: both


def test_sentinels_are_read_from_a_url_or_two_settings():
    sentinels, master, options = connection._sentinels("redis+sentinel://:s%40cret@10.0.0.1:26379,10.0.0.2/main/3")
    assert [(s.connection_pool.connection_kwargs["host"], s.connection_pool.connection_kwargs["port"])
            for s in sentinels.sentinels] == [("10.0.0.1", 26379), ("10.0.0.2", 26379)]
    assert master == "main" and options == {"db": 3, "password": "s@cret"}
    config = Settings.from_env({"REDIS_SENTINELS": "a:1,b:2", "REDIS_SENTINEL_MASTER": "main",
                                "REDIS_URL": "redis://x"})
    assert config.redis_url == "redis+sentinel://a:1,b:2/main"
    with pytest.raises(SettingsError, match="REDIS_SENTINEL_MASTER"):
        Settings.from_env({"REDIS_SENTINELS": "a:1"})


def test_every_default_is_the_dataclass_one():
    assert Settings.from_env({}) == Settings()
    assert Settings.from_env({"REDIS_MIN_REPLICAS": "2", "RATE_LIMITS": "off", "DATA_DIR": "/d"}) == replace(
        Settings(), redis_min_replicas=2, rate_limits_on=False, data_dir=Path("/d"), mail_outbox=Path("/d/outbox"))
    with pytest.raises(SettingsError, match="REDIS_MIN_REPLICAS='one' is not a valid int"):
        Settings.from_env({"REDIS_MIN_REPLICAS": "one"})
