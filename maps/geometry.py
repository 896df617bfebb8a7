"""The drawn board, read once per process from ``maps/data/standard.json``
(built by :mod:`maps.build_geometry` from :mod:`maps.atlas`)."""
from __future__ import annotations

import json
from pathlib import Path

#: {"width", "height", "provinces": {id: {"d", "centre"}}, "coasts": {loc: [x, y]},
#:  "impassable": {name: d}, "islands": {name: d}, "coastline": d}; every variant uses the standard board
GEOMETRY: dict = json.loads((Path(__file__).with_name("data") / "standard.json").read_text())
