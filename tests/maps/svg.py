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
