"""The powers' colours stay apart for readers with normal colour vision and
with each of the three dichromacies, simulated with the matrices of Machado,
Oliveira & Fernandes (2009, severity 1.0) and compared in CIELAB (CIE76 delta E)."""
from __future__ import annotations

import itertools
import math

import pytest

from maps import palette

MACHADO = {
    "normal": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}
MIN_DELTA_E = 20  # clearly different side by side; 2.3 is a just-noticeable difference


def linear(c):
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def lab(rgb_linear):
    r, g, b = (min(max(c, 0.0), 1.0) for c in rgb_linear)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t):
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116
    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def seen(hex_colour, vision):
    rgb = [linear(c) for c in palette.rgb(hex_colour)]
    m = MACHADO[vision]
    return lab([sum(m[i][j] * rgb[j] for j in range(3)) for i in range(3)])


@pytest.mark.parametrize("vision", list(MACHADO))
def test_every_two_powers_differ_for_every_vision(vision):
    colours = {**palette.POWER_COLOURS, "neutral": palette.NEUTRAL}
    close = []
    for (p, a), (q, b) in itertools.combinations(colours.items(), 2):
        delta = math.dist(seen(a, vision), seen(b, vision))
        if delta < MIN_DELTA_E:
            close.append(f"{p}/{q}: {delta:.1f}")
    assert not close, f"too close under {vision}: {close}"


def test_unit_letters_are_readable_on_their_colour():
    for power, colour in palette.POWER_COLOURS.items():
        ink = palette.ink_on(colour)
        hi, lo = sorted((palette.luminance(colour), palette.luminance(ink)), reverse=True)
        assert (hi + 0.05) / (lo + 0.05) >= 4.5, power  # WCAG AA contrast for the letter
