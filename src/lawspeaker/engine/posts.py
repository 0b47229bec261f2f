"""Reading a post: the orders and DP allocations a player pastes from a forum
or a Discord message, one per line.

A post is read line by line, and every line that is not blank, a comment or a
power header becomes a :class:`PostLine`: either an order, an allocation, or an
error saying what could not be read and where. Nothing is dropped silently, so
a front end can report each line back to the player at once (accepted,
illegal, unreadable), and the GM's tools can refuse a post with an error in it.

Lines name their power with a header (``England:``, ``England`` alone,
``**France**``, ``France orders:``) or a prefix (``England: F Lon - Nth``); a
``power`` given by the caller (the player who posts) is the default. What
posts carry around the orders is ignored: ``#`` and ``//`` comments, bullets
(``-``, ``*``, ``•``), numbering (``1.``, ``1)``), ``**bold**``, ``__bold__``,
backticks, ``>`` quotes, a byte-order mark, a closing full stop, a header
naming a power and a phase (``**Aesir — Spring 400 BCE**``, ``Vanir orders for
Spring 400 BCE``: the power, then only words naming a phase), and a remark in
parentheses after an order (``Build A Asgard (for defence)``), which is dropped
only when the line is not an order with it (``F Spa (sc)`` is a coast).

An order of the wrong kind for the phase (a build in an orders phase, a move
in an adjustment phase) is an error on its line, never processed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..core.board import PhaseKind
from ..core.notation import OrderSyntaxError, parse_order
from ..core.orders import Order
from ..rules.dp import Allocation, is_allocation, parse_allocation
from ..variants import Variant
from .phases import kind_problem

__all__ = ["PostError", "PostLine", "decode", "decode_post", "kind_problem", "read_post"]


class PostError(ValueError):
    """A post that cannot be read at all (not text)."""


class _UnknownHeader(ValueError):
    """A header naming no power: the lines under it have no power either."""


@dataclass(frozen=True, slots=True)
class PostLine:
    number: int
    """1-based line number in the post."""
    text: str
    """The line as written."""
    power: str | None
    """The power the line is for, or ``None`` when none was given."""
    order: Order | None = None
    allocation: Allocation | None = None
    error: str | None = None
    """Why the line could not be read; ``order`` and ``allocation`` are then ``None``."""

    @property
    def ok(self) -> bool:
        return self.error is None


# --- bytes to text -------------------------------------------------------------

_ENCODING_NAMES = {"utf-8": "UTF-8", "utf-16": "UTF-16", "cp1252": "Windows-1252",
                   "latin-1": "Latin-1"}


def decode(data: bytes, where: str = "the post") -> tuple[str, str]:
    """Text from bytes, and the encoding it was read in (``UTF-8``,
    ``UTF-16``, ``Windows-1252`` or ``Latin-1``).

    UTF-8 with or without a byte-order mark; UTF-16 with one (Windows
    Notepad's "Unicode"); otherwise Windows-1252, the usual encoding of a file
    saved on Windows, then Latin-1. Raises :class:`PostError` for a binary file.
    """
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return _text_only(data.decode("utf-16"), where), _ENCODING_NAMES["utf-16"]
        except UnicodeDecodeError:
            raise PostError(f"{where} is not text: it starts like UTF-16 but is not") from None
    if b"\x00" in data:
        at = data.index(0) + 1
        raise PostError(f"{where} is a binary file, not text (a zero byte at byte {at})")
    for encoding in ("utf-8-sig", "cp1252", "latin-1"):
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError:
            continue
        return _text_only(text, where), _ENCODING_NAMES[encoding.removesuffix("-sig")]
    raise PostError(f"{where} is not text")  # pragma: no cover - latin-1 decodes anything


def _text_only(text: str, where: str) -> str:
    """``text``, unless control characters show it is really a binary file."""
    controls = [i for i, ch in enumerate(text) if ord(ch) < 32 and ch not in "\t\n\r\f\v"]
    if controls and len(controls) * 20 > len(text):
        raise PostError(f"{where} is a binary file, not text (control character at "
                        f"character {controls[0] + 1})")
    return text


def _storable(text: str) -> None:
    """Refuse a post with NUL, control (tabs and line breaks aside) or bidi characters:
    they cannot be stored, or make a line read differently from what it is."""
    from ..core.safetext import unsafe_char

    bad = unsafe_char(text, allow="\t\n\r\f\v")
    if bad is not None:
        line = text[:int(bad.rsplit(" ", 1)[1])].count("\n") + 1
        raise PostError(f"the post contains {bad.rsplit(' at ', 1)[0]} on line {line}: "
                        "remove it and send again")


def decode_post(data: bytes, where: str = "the post") -> str:
    """Text from bytes (see :func:`decode`); raises :class:`PostError` if binary."""
    return decode(data, where)[0]


# --- what a post wraps around an order -------------------------------------------

_COMMENT = re.compile(r"(#|//).*$")
_STRUCK = re.compile(r"~~.*?~~")  # struck through: the player took it back
_MARKUP = re.compile(r"\*|__|`|\|\|")
_BULLET = re.compile(r"^(?:[-*•·+–—>]\s+|\(?\d{1,3}[.)]\s+|\d{1,3}[.)](?=[A-Za-z]))")
_INVISIBLE = dict.fromkeys(map(ord, "\ufeff\u200b\u200c\u200d\u2060"), None) | {
    0xA0: " ", 0x2019: "'"}
_HEADER = re.compile(r"^(?:orders?\s+(?:for|of)\s+)?(?P<name>[^:]+?)(?:'s?)?"
                     r"(?:\s+orders?)?\s*[:\-–—]?\s*$", re.IGNORECASE)


def clean_line(raw: str) -> str:
    """A post's line without what surrounds the order: comments, markup,
    bullets and numbering, a closing full stop or semicolon."""
    line = _COMMENT.sub("", raw.translate(_INVISIBLE))
    line = _MARKUP.sub("", _STRUCK.sub("", line)).strip().strip("_").strip()
    while (match := _BULLET.match(line)) is not None:
        line = line[match.end():].strip()
    if line in ("-", "*", "•", ">"):
        return ""
    return line.rstrip(".;,").strip()


def _header(variant: Variant, line: str) -> str | None:
    """The power a header line names (``England``, ``France orders:``), or
    ``None`` when the line is not a header. Raises ValueError for a header
    naming no power (a line ending in ':' with nothing after it)."""
    match = _HEADER.match(line)
    if match is None:
        return None
    name = match.group("name").strip()
    try:
        return variant.power_named(name)
    except ValueError as exc:
        if not line.endswith(":"):
            return None
        if "did you mean" in str(exc) or " " not in name:
            raise _UnknownHeader(str(exc)) from None
        raise ValueError(f"'{line}' is neither an order nor a power header (powers: "
                         f"{', '.join(variant.powers)})") from None


_PHASE_WORD = (r"(?:spring|summer|autumn|fall|winter|orders?|moves?|movement|retreats?|"
               r"adjustments?|builds?|census|phase|turn|season|year|cycle|first|second|"
               r"third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|\d{1,4}|bce|bc|ce|ad|"
               r"of|for|the|in|[sfwa]\d{1,4}[mra])")
_PHASE = re.compile(rf"^(?:{_PHASE_WORD}(?:[\s,.()/:]|[-—–](?=\s)|$)+)+$", re.IGNORECASE)
"""Words that name a phase and nothing else: ``Spring 400 BCE``, ``Winter 1992
Adjustment``, ``Orders for S1901M``. No order can be written with them alone."""
_PHASE_HEADER_JOIN = re.compile(r"^(?:'s)?(?:\s+orders?)?\s*(?:[—–:,|]|-(?=\s)|"
                                r"\b(?:for|in)\b)?\s*", re.IGNORECASE)


def _phase_header(variant: Variant, line: str) -> str | None:
    """The power of a header naming a power and a phase, as forum posts open:
    ``Aesir — Spring 400 BCE``, ``Vanir orders for Spring 400 BCE``,
    ``Orders for Egypt, Winter 1992:``. ``None`` unless the line is clearly
    that: the power's name, then only words naming a phase."""
    text = re.sub(r"^orders?\s+(?:for|of)\s+", "", line.strip(), flags=re.IGNORECASE)
    low = text.lower()
    for p in variant.powers.values():
        for name in (p.name, p.adjective):
            if not low.startswith(name.lower()) or not name:
                continue
            rest = text[len(name):]
            if rest[:1].isalnum():
                continue  # 'Aesirs...' is not 'Aesir'
            rest = rest[_PHASE_HEADER_JOIN.match(rest).end():]  # type: ignore[union-attr]
            if rest and _PHASE.match(rest.rstrip(":").strip().lstrip("(")):
                return p.name
    return None


_TRAILING_COMMENT = re.compile(r"\s*\([^()]*\)\s*$")
"""A remark in parentheses closing a line: ``Build A Asgard (for defence)``."""


def _unknown_power(variant: Variant, name: str) -> str:
    """``unknown power 'Englnd' (did you mean England?)``."""
    try:
        variant.power_named(name)
    except ValueError as exc:
        return str(exc)
    return f"'{name}' names a power where an order was expected"  # pragma: no cover


# --- reading ----------------------------------------------------------------------

def read_post(variant: Variant, text: str | bytes, kind: PhaseKind,
              power: str | None = None) -> list[PostLine]:
    """Every order and allocation line of a post, read for a phase of ``kind``.

    Raises :class:`PostError` only when ``text`` is bytes that are not text,
    or holds a character that cannot be stored or shown honestly (NUL, a
    control or bidi character); every other problem is a :class:`PostLine`
    with ``error`` set.
    """
    if isinstance(text, bytes):
        text = decode_post(text)
    _storable(text)
    lines: list[PostLine] = []
    current = power
    bad_header = 0
    capitals = variant.capital_names()
    for number, raw in enumerate(text.splitlines(), 1):
        line = clean_line(raw)
        if not line:
            continue
        who = current
        try:
            try:
                header = _phase_header(variant, line) or _header(variant, line)
            except _UnknownHeader:
                current, bad_header, who = None, number, None
                raise
            if header is not None:
                current, bad_header = header, 0
                continue
            head, sep, rest = line.partition(":")
            if sep and rest.strip():
                try:
                    who = variant.power_named(clean_line(head))
                except ValueError:
                    if " " not in head.strip():  # 'Englnd: F Lon - Nth'
                        raise ValueError(_unknown_power(variant, head.strip())) from None
                    sep, rest = "", line  # a colon inside the order itself
            body = clean_line(rest) if sep else line
            if not who and bad_header:
                raise ValueError(f"no power for this line: the header on line {bad_header} "
                                 "names no power")
            if not who:
                raise ValueError("no power given: start with a line like 'England:'")
            try:
                lines.append(_read_line(variant, number, raw, who, body, kind, capitals))
            except (OrderSyntaxError, ValueError) as first:
                # A remark in parentheses after an order is skipped; only when the
                # whole line is not an order as written (coasts are in parentheses).
                bare = _TRAILING_COMMENT.sub("", body)
                if bare == body or not bare:
                    raise
                try:
                    lines.append(_read_line(variant, number, raw, who, bare, kind, capitals))
                except (OrderSyntaxError, ValueError):
                    raise first from None
        except (OrderSyntaxError, ValueError) as exc:
            lines.append(PostLine(number, raw, who, error=variant.cite(str(exc))))
    return lines


def _read_line(variant: Variant, number: int, raw: str, who: str, body: str,
               kind: PhaseKind, capitals: dict[str, str]) -> PostLine:
    if is_allocation(body):
        if kind is not PhaseKind.MOVEMENT:
            raise ValueError(f"DP are allocated only in orders phases, not in a {kind.value} "
                             "phase (S9 §9.0)")
        return PostLine(number, raw, who, allocation=parse_allocation(
            variant.map, body, who, capitals))
    order = parse_order(variant.map, body, who, kind, capitals)
    problem = kind_problem(order, kind)
    if problem is not None:
        raise ValueError(problem)
    return PostLine(number, raw, who, order=order)
