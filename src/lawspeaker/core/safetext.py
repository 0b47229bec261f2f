"""Text that may be stored and shown: no NUL, control or bidi characters.

Names (games, players) are one line of printable text; posts may also hold
tabs and line breaks. Bidi controls are refused everywhere: they make a name
or an order read differently from what it is (``Trojan Source``), and NUL
and lone surrogates cannot be stored at all.
"""

from __future__ import annotations

import unicodedata

__all__ = ["UNROUTABLE", "check_name", "unsafe_char"]

UNROUTABLE = "/\\?#%"
"""Characters a name that is part of a web address (a game's: ``/games/NAME``) may
not hold: a router splits or cuts the path at them, or decodes them first."""

_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def unsafe_char(text: str, allow: str = "") -> str | None:
    """What is wrong with ``text`` (``a control character U+0000 at character
    3``), or None. ``allow``: control characters that are fine (``"\\t\\n\\r"``)."""
    for i, ch in enumerate(text, 1):
        if ch in allow:
            continue
        category = unicodedata.category(ch)
        if ch in _BIDI:
            what = "a bidirectional control character"
        elif category == "Cc":
            what = "a control character"
        elif category == "Cs":
            what = "an unpaired surrogate"
        elif category in ("Zl", "Zp"):
            what = "a line separator"
        else:
            continue
        return f"{what} (U+{ord(ch):04X}) at character {i}"
    return None


def check_name(text: str, what: str, longest: int, *, in_url: bool = False) -> str:
    """``text`` stripped, if it is 1 to ``longest`` printable characters on one
    line; else ValueError naming ``what`` and the problem. ``in_url``: the name
    is part of a web address, so none of :data:`UNROUTABLE`, and not only dots."""
    text = text.strip()
    if not text or len(text) > longest:
        raise ValueError(f"{what} is 1 to {longest} characters on one line")
    bad = unsafe_char(text)
    if bad is not None:
        raise ValueError(f"{what} may not contain {bad}")
    if in_url:
        found = next((ch for ch in text if ch in UNROUTABLE), None)
        if found is not None:
            raise ValueError(f"{what} may not contain '{found}': it is part of the web "
                             f"address; leave out {' '.join(UNROUTABLE)}")
        if not text.strip("."):
            raise ValueError(f"{what} may not be only dots: it is part of the web address")
    return text
