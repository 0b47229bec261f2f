"""Colours, sizes and fonts of a drawn map, and who is painted in which colour.

Every power colour comes from the variant (``Power.colour``), so a new
variant draws in its own colours with no change here. What this module adds
is the S9 §1.1 convention for the powers that exist only in play: neutral
minor powers are tan and marked with the Π rune (§4.0), a thrall is painted
in its controller's colour, and a vassal carries both controllers' colours.
Everything else (links, outcomes, paper) is a fixed, colour-blind-aware set
chosen so that an order's fate reads at a glance on every variant's palette.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..core.board import Position
from ..core.geography import normalise_name
from ..variants import Variant

__all__ = [
    "COLORBLIND",
    "FONT",
    "LINK_COLOURS",
    "MINOR_MARK",
    "NUCLEAR_MARK",
    "PALETTES",
    "STYLE",
    "TAN",
    "Look",
    "Style",
    "ink_on",
    "link_look",
    "look_of",
    "mix",
    "palette_free",
    "recoloured",
    "slug",
    "style_for",
]

FONT = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"
"""DejaVu first: it is what Debian's fonts-dejavu-core installs, so PNGs are
rendered with the same glyphs on every developer's machine and in CI."""

TAN = "#d2b48c"
"""Neutral minor powers' units and centres (S9 §1.1, §4.0: 'tan-colored')."""

NUCLEAR_MARK = "\u2622"
"""The radiation sign on a nuclear power's units (Dissolution §3.6)."""
MINOR_MARK = "Π"
"""The rune S9 §4.0 puts on minor powers' units."""

LINK_COLOURS = {"army": "#d62728", "fleet": "#1f63c6", "both": "#8e3fa8"}
"""S9 §4.4: army-only links red, fleet-only links blue, links for both purple."""


@dataclass(frozen=True, slots=True)
class Style:
    """Sizes in SVG user units (one unit is one pixel of a PNG at scale 1).

    They are chosen for legibility at the default size: text no smaller than
    11 px, tokens big enough for a two-letter power abbreviation.
    """

    node: float = 11.0
    """Radius of a province's dot."""
    token: float = 15.0
    """Radius of a unit's token."""
    min_spacing: float = 50.0
    """The closest two provinces are drawn at least this far apart."""
    median_spacing: float = 78.0
    """...and a typical pair this far apart: this fixes each variant's scale."""
    margin: float = 40.0
    label_size: float = 11.5
    title_size: float = 22.0
    legend_width: float = 290.0
    legend_text: float = 13.0
    paper: str = "#fbf8f1"
    land: str = "#eadfc4"
    sea: str = "#cfe2f3"
    sea_edge: str = "#5b8fc7"
    land_edge: str = "#8c7b5a"
    impassable: str = "#7d7d7d"
    ink: str = "#222222"
    faint_link: str = "#b9b4aa"
    succeeds: str = "#1a7f37"
    fails: str = "#d1242f"
    """Failed moves, cut supports, disrupted convoys, dislodged units."""
    illegal: str = "#8a8a8a"
    marriage: str = "#c2185b"
    bought: str = "#6b4c9a"
    """The badge on an order a neutral unit was given by DP (S9 §9, Dissolution §5.1)."""
    palette: str = "standard"
    """The palette's name, as the CLI, the web and the API take it."""
    links: tuple[tuple[str, str, str | None], ...] = (
        ("army", LINK_COLOURS["army"], None), ("fleet", LINK_COLOURS["fleet"], None),
        ("both", LINK_COLOURS["both"], None))
    """Each kind of border (S9 §4.4): its colour and its dash pattern."""
    powers: tuple[str, ...] = ()
    """Colours that replace the variant's power colours (each power gets the
    nearest one, no two the same); empty: the variant's own (the default)."""


STYLE = Style()

OKABE_ITO = ("#000000", "#e69f00", "#56b4e9", "#009e73", "#f0e442", "#0072b2", "#d55e00",
             "#cc79a7")
"""Okabe & Ito's colour-universal-design set, told apart with every common
form of colour blindness (deuteranopia, protanopia, tritanopia)."""

COLORBLIND = Style(
    palette="colorblind",
    succeeds="#0072b2", fails="#d55e00", marriage="#cc79a7", bought="#5a3d8a",
    sea_edge="#3b6ea8",
    links=(("army", "#d55e00", None), ("fleet", "#0072b2", "9,5"),
           ("both", "#6a3d9a", "2,4")),
    powers=(*(c for c in OKABE_ITO if c != "#d55e00"), "#ffffff", "#882255", "#7f7f7f",
            "#44aa99", "#332288"),
)
"""The colour-blind-safe palette: Okabe-Ito colours for the powers (all but
vermillion, kept for failure; then white, grey and Tol's wine, teal and
indigo), blue for success and vermillion for failure (never red against
green), and borders told apart by dash as well as colour: army-only solid,
fleet-only dashed, both dotted. Meanings never rest on colour alone: a failed
order is also crossed, a cut support crossed, a dislodged unit ringed, a
neutral unit's tokens marked (Π, ☢)."""

PALETTES = {"standard": STYLE, "colorblind": COLORBLIND}
"""The named palettes: ``map draw --palette``, ``game map --palette``, the
web's ``?palette=`` and ``draw(..., palette=)`` all take these names."""


def style_for(palette: str | None, base: Style = STYLE) -> Style:
    """The style of a named palette (``None``: ``base``); a clear error for
    an unknown name."""
    if palette is None:
        return base
    found = PALETTES.get(palette.strip().lower().replace("-", "").replace("colour", "color"))
    if found is None:
        raise ValueError(f"unknown palette '{palette}' (one of: {', '.join(PALETTES)})")
    return found


_COLOUR_FIELDS = ("paper", "land", "sea", "sea_edge", "land_edge", "impassable", "ink",
                  "faint_link", "succeeds", "fails", "illegal", "marriage", "bought", "palette",
                  "links", "powers")


def palette_free(style: Style) -> Style:
    """``style`` with the standard palette's colours: what a layout (places,
    sizes) depends on, so every palette shares one layout per map."""
    return replace(style, **{f: getattr(STYLE, f) for f in _COLOUR_FIELDS})


def link_look(style: Style, kind: str) -> tuple[str, str | None]:
    """The colour and dash pattern of a border of ``kind`` (army, fleet, both)."""
    for name, colour, dash in style.links:
        if name == kind:
            return colour, dash
    raise KeyError(kind)


_RECOLOURED: dict[tuple[int, Style], tuple[Variant, Variant]] = {}


def recoloured(variant: Variant, style: Style) -> Variant:
    """``variant`` with its power and nuclear-power colours taken from
    ``style.powers`` (the same variant when the style keeps them).

    Each colour goes to the power whose own colour is nearest (closest pairs
    first), so a palette keeps each power's hue where it can and no two powers
    share a colour; neutral minors stay tan (S9 §1.1)."""
    if not style.powers:
        return variant
    key = (id(variant), style)
    hit = _RECOLOURED.get(key)
    if hit is not None and hit[0] is variant:
        return hit[1]
    powers = _assign({n: p.colour for n, p in variant.powers.items()}, style.powers)
    # Nuclear powers (Dissolution §3.6) carry the ☢ sign, so they may reuse a colour.
    nuclear = _assign({n: p.colour for n, p in variant.nuclear.items()}, style.powers)
    out = replace(variant,
                  powers={n: replace(p, colour=powers[n]) for n, p in variant.powers.items()},
                  nuclear={n: replace(p, colour=nuclear[n]) for n, p in variant.nuclear.items()})
    if len(_RECOLOURED) > 32:
        _RECOLOURED.clear()
    _RECOLOURED[key] = (variant, out)
    return out


def _assign(own: dict[str, str], colours: tuple[str, ...]) -> dict[str, str]:
    pairs = sorted((_distance(c, colour), name, i) for name, c in own.items()
                   for i, colour in enumerate(colours))
    out: dict[str, str] = {}
    used: set[int] = set()
    for _, name, i in pairs:
        if name not in out and i not in used:
            out[name] = colours[i]
            used.add(i)
    for name in own:  # more powers than colours: the rest keep their own
        out.setdefault(name, own[name])
    return out


def _distance(a: str, b: str) -> float:
    """A perceptual-ish distance ('redmean'), enough to keep a power's hue."""
    (r1, g1, b1), (r2, g2, b2) = _rgb(a), _rgb(b)
    rm = (r1 + r2) / 2
    return ((2 + rm / 256) * (r1 - r2) ** 2 + 4 * (g1 - g2) ** 2
            + (2 + (255 - rm) / 256) * (b1 - b2) ** 2) ** 0.5


@dataclass(frozen=True, slots=True)
class Look:
    """How one power's units and centres are painted."""

    fills: tuple[str, ...]
    """One colour, or two for a vassal (giver, receiver)."""
    mark: str
    """Text on its tokens: empty for the unit's type letter (A, F), as on
    every Diplomacy map, or the Π rune for minor and thrall units (S9 §4.0)."""
    kind: str
    """``major``, ``minor``, ``thrall``, ``vassal``, ``nuclear`` (or ``unknown``)."""


def look_of(variant: Variant, position: Position | None, power: str) -> Look:
    """The paint for ``power``'s units and centres (S9 §1.1).

    A thrall is its controller's colour with the minor rune, so it is both
    told apart from the controller's own units and seen to belong to it.
    """
    major = variant.powers.get(power)
    if major is not None:
        return Look((major.colour,), "", "major")
    state = position.powers_in_play.get(power) if position is not None else None
    if state is None:
        return Look((TAN,), MINOR_MARK, "unknown")
    colours = tuple(variant.powers[c].colour for c in state.controllers if c in variant.powers)
    if state.kind == "thrall" and colours:
        return Look(colours[:1], MINOR_MARK, "thrall")
    if state.kind == "vassal" and colours:
        return Look(colours[:2], "", "vassal")
    nuclear = variant.nuclear.get(power)
    if state.kind == "nuclear" and nuclear is not None:
        # Dissolution §3.6, §8: neutral, invulnerable, in the power's own colour.
        return Look((nuclear.colour,), NUCLEAR_MARK, "nuclear")
    return Look((TAN,), MINOR_MARK, state.kind)


def _rgb(colour: str) -> tuple[int, int, int]:
    text = colour.lstrip("#")
    if len(text) == 3:
        text = "".join(c * 2 for c in text)
    return int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16)


def _luminance(colour: str) -> float:
    def channel(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in _rgb(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ink_on(colour: str) -> str:
    """Black or white, whichever reads better on ``colour`` (WCAG contrast)."""
    lum = _luminance(colour)
    return "#000000" if (lum + 0.05) / 0.05 >= 1.05 / (lum + 0.05) else "#ffffff"


def mix(colour: str, other: str, share: float) -> str:
    """``colour`` moved ``share`` of the way towards ``other`` (for tints)."""
    a, b = _rgb(colour), _rgb(other)
    return "#" + "".join(f"{round(x + (y - x) * share):02x}" for x, y in zip(a, b, strict=True))


def slug(text: str) -> str:
    """A name as an XML id fragment: ``Golden Horde`` -> ``golden-horde``."""
    return normalise_name(text).replace(" ", "-") or "x"
