"""Tests marked ``scale`` start many real processes (Redis with sentinels, whole services) and take
tens of seconds of both cores: they run as a step of their own (``.ci/run``: ``SCALE_TESTS=1
python3 manage.py test -n0 tests/scale``) and are skipped in the ordinary run."""
from __future__ import annotations

import os

import pytest


def pytest_configure(config):
    config.addinivalue_line("markers", "scale: a test of many real processes, run as a step of its own "
                                       "(SCALE_TESTS=1; tests/scale/conftest.py)")


def pytest_collection_modifyitems(config, items):
    if os.environ.get("SCALE_TESTS") == "1":
        return
    skip = pytest.mark.skip(reason="a scale test: run with SCALE_TESTS=1 (.ci/run runs them as a step of their own)")
    for item in items:
        if item.get_closest_marker("scale"):
            item.add_marker(skip)
