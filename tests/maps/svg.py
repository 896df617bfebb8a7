"""Reading a rendered map back, the way a client program would: by its data attributes."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"


class Picture:
    def __init__(self, svg: str):
        self.root = ET.fromstring(svg.encode("utf-8"))

    def all(self, attribute: str, value: str | None = None) -> list[ET.Element]:
        return [e for e in self.root.iter() if attribute in e.attrib
                and (value is None or e.attrib[attribute] == value)]

    def one(self, attribute: str, value: str) -> ET.Element:
        found = self.all(attribute, value)
        assert len(found) == 1, f"{len(found)} elements with {attribute}={value!r}"
        return found[0]

    def orders(self) -> list[tuple[str, str, str]]:
        return [(e.attrib["data-power"], e.attrib["data-order"], e.attrib["data-outcome"])
                for e in self.all("data-order")]


def shapes(element: ET.Element, tag: str) -> list[ET.Element]:
    return [e for e in element.iter(SVG + tag)]


def points(path: ET.Element) -> list[tuple[float, float]]:
    """The points of a path drawn with straight segments (M x,y L x,y ... [Z])."""
    numbers = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", path.attrib["d"])]
    return list(zip(numbers[0::2], numbers[1::2]))


def lines(element: ET.Element) -> list[ET.Element]:
    """Open straight strokes: shafts of arrows, support and convoy lines, crosses."""
    return [e for e in shapes(element, "path") if "Z" not in e.attrib["d"] and "q" not in e.attrib["d"]]


def polygons(element: ET.Element) -> list[ET.Element]:
    return [e for e in shapes(element, "path") if e.attrib["d"].rstrip().endswith("Z")]


def samples(d: str, per_curve: int = 12) -> list[tuple[float, float]]:
    """Points along a path of straight segments and quadratic curves (M, L, Q; absolute)."""
    out: list[tuple[float, float]] = []
    for command, numbers in re.findall(r"([MLQ])([^MLQ]*)", d):
        xy = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", numbers)]
        pts = list(zip(xy[0::2], xy[1::2]))
        if command == "M":
            out.append(pts[0])
        elif command == "L":
            for p in pts:
                a = out[-1]
                out += [(a[0] + (p[0] - a[0]) * t / per_curve, a[1] + (p[1] - a[1]) * t / per_curve)
                        for t in range(1, per_curve + 1)]
        else:
            (cx, cy), p = pts
            a = out[-1]
            for i in range(1, per_curve + 1):
                t = i / per_curve
                out.append(((1 - t) ** 2 * a[0] + 2 * (1 - t) * t * cx + t * t * p[0],
                            (1 - t) ** 2 * a[1] + 2 * (1 - t) * t * cy + t * t * p[1]))
    return out
