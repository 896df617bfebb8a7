"""The one-command start: python -m service.launch (embedded Redis or REDIS_URL), stopped by Ctrl-C."""
from __future__ import annotations

import os
import signal
import subprocess
import sys

import requests

from svc_stack import ROOT, wait_for
from service.launch import free_port


def _launch(cwd, **env):
    port = free_port()
    log = open(cwd / "launch.log", "w")
    full_env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    full_env |= {"PORT": str(port), "PYTHONPATH": str(ROOT), **env}
    proc = subprocess.Popen([sys.executable, "-m", "service.launch"], cwd=cwd, env=full_env, stdout=log,
                            stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    wait_for(lambda: "Docs:" in (cwd / "launch.log").read_text() or proc.poll() is not None, 60,
             "the launcher to print its URLs")
    assert proc.poll() is None, (cwd / "launch.log").read_text()
    return proc, base


def _ctrl_c(proc, base, cwd) -> None:
    proc.send_signal(signal.SIGINT)
    assert proc.wait(40) == 0, (cwd / "launch.log").read_text()
    try:
        requests.get(f"{base}/v1/health", timeout=2)
        raise AssertionError("the API still answers after Ctrl-C")
    except requests.ConnectionError:
        pass
    assert "Stopped." in (cwd / "launch.log").read_text()


def test_embedded_redis_keeps_data_across_restarts(tmp_path):
    proc, base = _launch(tmp_path)
    try:
        out = (tmp_path / "launch.log").read_text()
        assert f"API:  {base}/v1" in out and f"Docs: {base}/docs" in out and "embedded" in out
        assert requests.get(f"{base}/docs", timeout=5).status_code == 200
        gid = requests.post(f"{base}/v1/games", json={}, timeout=5).json()["game"]["id"]
    finally:
        _ctrl_c(proc, base, tmp_path)
    assert (tmp_path / "data" / "appendonly.aof").exists()
    proc, base = _launch(tmp_path)
    try:
        assert requests.get(f"{base}/v1/games/{gid}", timeout=5).json()["status"] == "forming"
    finally:
        _ctrl_c(proc, base, tmp_path)


def test_uses_redis_url_when_given(tmp_path, redis_url):
    proc, base = _launch(tmp_path, REDIS_URL=redis_url)
    try:
        assert f"Redis: {redis_url}" in (tmp_path / "launch.log").read_text()
        assert requests.get(f"{base}/v1/health", timeout=5).json()["redis"] is True
    finally:
        _ctrl_c(proc, base, tmp_path)
    assert not (tmp_path / "data").exists()
