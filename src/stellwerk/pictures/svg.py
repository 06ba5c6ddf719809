"""A small layer over ``xml.etree.ElementTree`` for building SVG, and PNG export (cairosvg).

Numbers are written with at most two decimals so files stay small.
"""

from __future__ import annotations

import importlib
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from pathlib import Path

from stellwerk.pictures.geometry import Cubic, Point

SVG_NS = "http://www.w3.org/2000/svg"
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"


def num(value: float) -> str:
    """A coordinate with at most two decimals, no trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def sub(parent: ET.Element, tag: str, **attrs: str | float | int | None) -> ET.Element:
    """Append a child element; ``class_`` becomes ``class``, ``_`` in names becomes ``-``;
    None values are left out."""
    return ET.SubElement(parent, tag, _attrs(attrs))


def _attrs(attrs: dict[str, str | float | int | None]) -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in attrs.items():
        if value is None:
            continue
        name = "class" if key == "class_" else key.replace("_", "-")
        out[name] = num(value) if isinstance(value, float) else str(value)
    return out


def text(
    parent: ET.Element,
    x: float,
    y: float,
    content: str,
    size: float,
    *,
    anchor: str = "middle",
    weight: str | None = None,
    fill: str = "#000",
    **attrs: str | float | int | None,
) -> ET.Element:
    """A text centred (vertically by ``dominant-baseline``-free arithmetic: cairo ignores it)."""
    element = sub(
        parent,
        "text",
        x=x,
        y=y + size * 0.35,
        font_size=size,
        text_anchor=anchor,
        font_weight=weight,
        fill=fill,
        **attrs,
    )
    element.text = content
    return element


def path_d(curves: Iterable[Cubic]) -> str:
    """SVG path data of Bézier pieces (a new subpath where one does not start at the last end)."""
    parts: list[str] = []
    last: Point | None = None
    for p0, p1, p2, p3 in curves:
        if last is None or abs(last[0] - p0[0]) > 0.01 or abs(last[1] - p0[1]) > 0.01:
            parts.append(f"M{num(p0[0])} {num(p0[1])}")
        parts.append(
            f"C{num(p1[0])} {num(p1[1])} {num(p2[0])} {num(p2[1])} {num(p3[0])} {num(p3[1])}"
        )
        last = p3
    return "".join(parts)


def polygon_points(points: Iterable[Point]) -> str:
    return " ".join(f"{num(x)},{num(y)}" for x, y in points)


def new_svg(width: float, height: float, title: str) -> ET.Element:
    """The root element with a white background and a title."""
    root = ET.Element(
        "svg",
        {
            "xmlns": SVG_NS,
            "width": num(width),
            "height": num(height),
            "viewBox": f"0 0 {num(width)} {num(height)}",
            "font-family": FONT,
        },
    )
    ET.SubElement(root, "title").text = title
    sub(root, "rect", x=0, y=0, width=width, height=height, fill="#fff")
    return root


def to_string(root: ET.Element) -> str:
    """The document as text."""
    return ET.tostring(root, encoding="unicode")


def to_png(svg_text: str, scale: float = 1.0) -> bytes:
    """Rasterise SVG text with cairosvg (imported on first use: SVG needs no dependency)."""
    try:
        cairosvg = importlib.import_module("cairosvg")
    except ImportError as error:  # pragma: no cover - depends on the installation
        raise RuntimeError(f"PNG output needs cairosvg (pip install cairosvg): {error}") from error
    data: bytes = cairosvg.svg2png(bytestring=svg_text.encode("utf-8"), scale=scale)
    return data


def write(svg_text: str, path: Path, scale: float = 1.0) -> None:
    """Write SVG or, for a ``.png`` path, PNG."""
    if path.suffix.lower() == ".png":
        path.write_bytes(to_png(svg_text, scale))
    else:
        path.write_text(svg_text, encoding="utf-8")
