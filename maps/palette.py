"""Colours: one per power, the same on every map, chosen among the Okabe-Ito
palette (Okabe & Ito, "Color Universal Design", 2008) and Paul Tol's muted
scheme so that readers with any of the three dichromacies still tell every two
powers (and a neutral white centre) apart: tests/maps/test_palette.py
simulates them and measures the differences.  Close to the board's usual
colours: France light blue, Italy green, Turkey yellow, Germany black."""
from __future__ import annotations

POWER_COLOURS = {
    "AUSTRIA": "#882255",  # wine (Tol)
    "ENGLAND": "#332288",  # indigo (Tol)
    "FRANCE": "#56B4E9",  # sky blue (Okabe-Ito)
    "GERMANY": "#000000",  # black (Okabe-Ito)
    "ITALY": "#117733",  # green (Tol)
    "RUSSIA": "#CC79A7",  # reddish purple (Okabe-Ito)
    "TURKEY": "#F0E442",  # yellow (Okabe-Ito)
}
NEUTRAL = "#FFFFFF"
UNKNOWN = "#999999"  # a power the map does not know (never on the standard board)

LAND = "#EDE6D1"
SEA = "#A3C4DC"
IMPASSABLE = "#B5B0A4"
BORDER = "#6B6456"
INK = "#222222"


def rgb(hex_colour: str) -> tuple[float, float, float]:
    h = hex_colour.lstrip("#")
    return tuple(int(h[i:i + 2], 16) / 255 for i in (0, 2, 4))


def luminance(hex_colour: str) -> float:
    """WCAG relative luminance, 0 (black) to 1 (white)."""
    def lin(c):
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(c) for c in rgb(hex_colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ink_on(hex_colour: str) -> str:
    """Black or white, whichever reads better on this colour."""
    return "#000000" if luminance(hex_colour) > 0.18 else "#FFFFFF"


def tint(hex_colour: str, amount: float = 0.55) -> str:
    """The colour mixed with white: a pale fill for an owned province."""
    r, g, b = (c + (1 - c) * amount for c in rgb(hex_colour))
    return "#%02X%02X%02X" % (round(r * 255), round(g * 255), round(b * 255))


def colour(power: str) -> str:
    return POWER_COLOURS.get(power, UNKNOWN)
