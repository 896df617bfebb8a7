"""SVG to PNG with resvg (resvg-py: a Rust renderer in a self-contained wheel,
no system libraries needed; fonts are the system's, DejaVu on Debian)."""
from __future__ import annotations

import resvg_py

DEFAULT_WIDTH = 1200
MIN_WIDTH, MAX_WIDTH = 200, 2400


def render_png(svg: str, width: int = DEFAULT_WIDTH) -> bytes:
    """The SVG document as a PNG ``width`` pixels wide (height to scale)."""
    if not MIN_WIDTH <= width <= MAX_WIDTH:
        raise ValueError(f"width must be between {MIN_WIDTH} and {MAX_WIDTH}")
    return bytes(resvg_py.svg_to_bytes(svg_string=svg, width=width, background="#ffffff"))

