"""Reading orders in the notation players already write.

Accepted, case-insensitively, with full names, aliases or any unambiguous
prefix (S9 §5.1: a space may be named by its first three letters)::

    A Par - Bur        A Par -> Bur       A Par to Bur       A Par H
    A Par moves to Bur                    F Nth retreats to Nwy
    F Nth S A Lon - Bel                   F Nth S A Lon (support to hold)
    F Nth C A Lon - Bel                   A Lon - Nth - Bel  (explicit path)
    A Pic - Bel via convoy                F Spa/sc - Wes, Spa(sc), Spa sc, Spa-sc,
    Spain (south coast)                   A Tri R Alb, A Tri - Alb (retreat)
    A Tri D / Disband A Tri               Build F StP/nc, Remove A Mun, Waive
    Waive Permyak (a vassal's build, S9 §10.5.2)
    England: F Lon - Nth  (a leading power name)

and, for heirs and marriages (S9 §7.1, §8.3, §10)::

    Heir Aesir H          Heir Asgard Marry Permyak          H Asg Marry Per
    Heir Jotnar Marry Heir Zwergar at Thule                 F Per Marry Heir Aesir
    Build Heir            Build Heir Asgard

The grammar is a dozen productions; names are the hard part, because they
contain spaces and resolve against the variant's map. So this is a small
recursive-descent parser over a regular-expression tokenizer, which lets an
error name the exact token that failed and, for names, the nearest matches.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from .board import PhaseKind
from .geography import COAST_NAMES, GameMap, UnitType, UnknownNameError, normalise_name
from .orders import (
    Build,
    BuildHeir,
    Convoy,
    Disband,
    EmbassyOrder,
    HeirHold,
    HeirMarry,
    Hold,
    Marry,
    Move,
    Order,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    Waive,
)

__all__ = ["OrderSyntaxError", "format_order", "parse_order", "parse_orders"]


class OrderSyntaxError(ValueError):
    """An order that could not be read. Says which token failed and why."""

    def __init__(self, text: str, column: int, message: str,
                 suggestions: tuple[str, ...] = ()) -> None:
        self.text = text
        self.column = column
        self.reason = message
        self.suggestions = suggestions
        super().__init__(f"{message} (in '{text}' at column {column + 1})")


_TOKEN = re.compile(r"\s*(->|=>|[-–—:/(),]|[^\s\-–—:/(),]+)")

_MOVE = {"-", "->", "=>", "–", "—", "to", "m", "move", "moves", "mv"}
_HOLD = {"h", "hold", "holds", "stand", "stands"}
_SUPPORT = {"s", "support", "supports", "sup", "sp"}
_CONVOY = {"c", "convoy", "convoys", "cvy"}
_RETREAT = {"r", "retreat", "retreats"}
_DISBAND = {"d", "disband", "disbands"}
_BUILD = {"b", "build", "builds"}
_REMOVE = {"remove", "removes"}
_WAIVE = {"waive", "waives", "waived"}
_VIA = {"via", "by"}
_MARRY = {"marry", "marries", "wed", "weds"}
_HEIR = {"heir", "h"}
_TYPES = {"a": UnitType.ARMY, "army": UnitType.ARMY, "f": UnitType.FLEET,
          "fleet": UnitType.FLEET, "w": UnitType.WING, "wing": UnitType.WING}  # Dissolution §3.3
_STOP = (_MOVE | _HOLD | _SUPPORT | _CONVOY | _RETREAT | _DISBAND | _VIA | _REMOVE | _MARRY
         | {"(", ")", ",", ":"})
_COAST_WORDS = {
    **{code: code for code in COAST_NAMES},
    **{name.split()[0]: code for code, name in COAST_NAMES.items()},
    "n": "nc", "s": "sc", "e": "ec", "w": "wc",
}


@dataclass(slots=True)
class _Tok:
    text: str
    low: str
    col: int


class _Parser:
    def __init__(self, game_map: GameMap, text: str, power: str, kind: PhaseKind,
                 capitals: Mapping[str, str] | None = None) -> None:
        self.map = game_map
        self.capitals = capitals or {}
        self.text = text
        self.power = power
        self.kind = kind
        self.toks: list[_Tok] = []
        pos = 0
        stripped = text.rstrip()
        while pos < len(stripped):
            m = _TOKEN.match(stripped, pos)
            if m is None:  # pragma: no cover - the pattern matches any non-space
                break
            self.toks.append(_Tok(m.group(1), m.group(1).lower(), m.start(1)))
            pos = m.end()
        self.i = 0

    # --- token helpers ------------------------------------------------------

    def peek(self, offset: int = 0) -> _Tok | None:
        j = self.i + offset
        return self.toks[j] if j < len(self.toks) else None

    def at(self, words: set[str]) -> bool:
        tok = self.peek()
        return tok is not None and tok.low in words

    def fail(self, message: str, tok: _Tok | None = None,
             suggestions: tuple[str, ...] = ()) -> OrderSyntaxError:
        col = tok.col if tok else len(self.text.rstrip())
        return OrderSyntaxError(self.text, col, message, suggestions)

    def expect_end(self) -> None:
        tok = self.peek()
        if tok is not None:
            raise self.fail(f"unexpected '{tok.text}'", tok)

    # --- grammar -------------------------------------------------------------

    def order(self) -> Order:
        if not self.toks:
            raise self.fail("empty order")
        if len(self.toks) > 1 and self.toks[1].text == ":":
            self.power = self.toks[0].text
            self.i = 2
        if self.at(_WAIVE):
            self.i += 1
            where = self.location() if self.peek() is not None else ""  # a vassal's capital
            self.expect_end()
            return Waive(self.power, None, where)
        if self.at(_BUILD):
            self.i += 1
            if self.at_heir():
                self.i += 1
                where = self.heir() if self.peek() is not None else ""
                self.expect_end()
                return BuildHeir(self.power, None, where)  # S9 §8.3
            return self.finish(Build, *self.unit())
        if self.at_heir():
            self.i += 1
            return self.heir_order()
        if self.at(_REMOVE) or (self.at(_DISBAND) and self.peek(1) is not None):
            self.i += 1
            cls = Disband if self.kind is PhaseKind.RETREAT else Remove
            return self.finish(cls, *self.unit())
        utype, loc = self.unit()
        tok = self.peek()
        if tok is None or tok.low in _HOLD:
            self.i += tok is not None
            if self.kind is PhaseKind.ADJUSTMENT and tok is None:
                raise self.fail("say Build, Remove or Waive in an adjustment phase")
            return self.finish(Hold, utype, loc)
        if tok.low in _SUPPORT:
            self.i += 1
            return self.support(utype, loc)
        if tok.low in _MARRY:  # a minor's unit marries an heir (S9 §10.3 C)
            self.i += 1
            if self.at_heir() or self.at({"heir"}):
                self.i += 1
            heir = self.heir()
            self.expect_end()
            return Marry(self.power, utype, loc, heir)
        if tok.low in _CONVOY:
            self.i += 1
            _, sloc = self.unit()
            if not self.at(_MOVE):
                raise self.fail("a convoy order needs a destination: C A Lon - Bel", self.peek())
            self.i += 1
            target = self.location()
            self.expect_end()
            return Convoy(self.power, utype, loc, sloc, target)
        if tok.low in _DISBAND:
            self.i += 1
            return self.finish(Disband if self.kind is PhaseKind.RETREAT else Remove, utype, loc)
        if tok.low in _REMOVE:
            self.i += 1
            return self.finish(Remove, utype, loc)
        if tok.low in _BUILD:
            self.i += 1
            return self.finish(Build, utype, loc)
        if tok.low in _RETREAT or (tok.low in _MOVE and self.kind is PhaseKind.RETREAT):
            self.i += 1
            self.skip_to()
            target = self.location()
            self.expect_end()
            return Retreat(self.power, utype, loc, target)
        if tok.low in _MOVE:
            return self.move(utype, loc)
        raise self.fail(f"expected an order after '{self.text[:tok.col].strip()}', "
                        f"found '{tok.text}'", tok)

    def at_heir(self) -> bool:
        """``Heir ...`` or ``H Asg``: 'H' names an heir only when a name follows."""
        tok, nxt = self.peek(), self.peek(1)
        if tok is None or tok.low not in _HEIR:
            return False
        return tok.low == "heir" or (nxt is not None and nxt.low not in _STOP)

    def heir_order(self) -> Order:
        """After ``Heir``: ``Asgard H`` or ``Asgard Marry ...`` (S9 §7.1)."""
        where = self.heir()
        if self.peek() is None or self.at(_HOLD):
            self.i += self.peek() is not None
            self.expect_end()
            return HeirHold(self.power, None, where)
        if not self.at(_MARRY):
            raise self.fail("an heir may only Hold or Marry (S9 §7.1)", self.peek())
        self.i += 1
        if self.at_heir():
            self.i += 1
            partner = self.heir()
            at = ""
            if self.at({"at", "in"}):
                self.i += 1
                at = self.location()
            self.expect_end()
            return HeirMarry(self.power, None, where, partner, True, at)
        partner = self.location()
        self.expect_end()
        return HeirMarry(self.power, None, where, partner)

    def heir(self) -> str:
        """An heir, named by its power or by the centre it is in (S9 §7.1):
        ``Aesir``, ``Asgard``, ``Asg``. Returns the centre's province."""
        start = self.i
        words: list[_Tok] = []
        while (tok := self.peek()) is not None and tok.low not in _STOP | {"at", "in"}:
            words.append(tok)
            self.i += 1
        if not words:
            raise self.fail("expected an heir, such as 'Heir Aesir' or 'H Asg'", self.peek())
        text = normalise_name(" ".join(w.text for w in words))
        by_power = {normalise_name(k): v for k, v in self.capitals.items()}
        if text in by_power:
            return by_power[text]
        try:
            return self.map.lookup(" ".join(w.text for w in words))
        except UnknownNameError as exc:
            prefixed = {v for k, v in by_power.items() if k.startswith(text)}
            if len(prefixed) == 1:
                return prefixed.pop()
            raise self.fail(str(exc), self.toks[start], exc.candidates) from None

    def skip_to(self) -> None:
        """``moves to``, ``retreats to``: the 'to' after the verb adds nothing."""
        if self.at({"to", "into"}) and self.toks[self.i - 1].low not in ("to", "-"):
            self.i += 1

    def finish(self, cls: type[Order], utype: UnitType | None, loc: str) -> Order:
        self.expect_end()
        return cls(self.power, utype, loc)

    def move(self, utype: UnitType | None, loc: str) -> Move:
        hops: list[str] = []
        while self.at(_MOVE):
            self.i += 1
            self.skip_to()
            hops.append(self.location())
        via = False
        if self.at(_VIA):
            tok = self.peek()
            self.i += 1
            if not self.at(_CONVOY):
                raise self.fail("expected 'convoy' after 'via'", self.peek() or tok)
            self.i += 1
            via = True
        self.expect_end()
        return Move(self.power, utype, loc, hops[-1], via, tuple(hops[:-1]))

    def support(self, utype: UnitType | None, loc: str) -> Order:
        stype, sloc = self.unit()
        if self.at(_MOVE):
            self.i += 1
            target = self.location()
            self.expect_end()
            return SupportMove(self.power, utype, loc, stype, sloc, target)
        if self.at(_HOLD):
            self.i += 1
        self.expect_end()
        return SupportHold(self.power, utype, loc, stype, sloc)

    def unit(self) -> tuple[UnitType | None, str]:
        tok = self.peek()
        if tok is None:
            raise self.fail("expected a unit, such as 'A Par' or 'F Nth'")
        utype = None
        nxt = self.peek(1)
        if tok.low in _TYPES and nxt is not None and nxt.low not in _STOP:
            utype = _TYPES[tok.low]
            self.i += 1
        return utype, self.location()

    def location(self) -> str:
        """A space name of one or more words, optionally followed by a coast."""
        start = self.i
        words: list[_Tok] = []
        while True:
            tok = self.peek()
            if tok is not None and tok.low not in _STOP and tok.text != "/":
                words.append(tok)
                self.i += 1
            elif tok is not None and tok.text == "-" and words and self.hyphenated(words):
                self.i += 1  # 'Mid-Atlantic': a hyphen inside a name, not a move
            else:
                break
        if not words:
            raise self.fail("expected a space name", self.peek())
        coast = self.hyphen_coast(words[-1]) or self.coast_suffix()
        if coast is None and len(words) > 1:
            # 'Spa sc', 'Spain north coast': trailing coast words.
            for cut in (2, 1):
                tail = " ".join(w.low for w in words[-cut:])
                code = _coast_code(tail)
                if code and len(words) > cut and not self.names(words):
                    coast, words = code, words[:-cut]
                    break
        province = self.resolve(words, start)
        if coast is None:
            return province
        if coast not in self.map.provinces[province].coasts:
            return province  # DATC 4.B.6: an unknown or irrelevant coast is ignored
        return f"{province}/{coast}"

    def hyphen_coast(self, last: _Tok) -> str | None:
        """``Tol-wc`` (OOD §4.3): a coast joined to its province by a hyphen, with
        no spaces, read as a coast only when it is a coast code."""
        dash, code = self.peek(), self.peek(1)
        if dash is None or code is None or dash.text != "-" or code.low not in COAST_NAMES:
            return None
        if last.col + len(last.text) != dash.col or dash.col + 1 != code.col:
            return None
        self.i += 2
        return code.low

    def coast_suffix(self) -> str | None:
        tok = self.peek()
        if tok is None:
            return None
        if tok.text == "/":
            self.i += 1
            word = self.peek()
            if word is None:
                raise self.fail("expected a coast after '/'")
            self.i += 1
            code = _coast_code(word.low)
            if code is None:
                raise self.fail(f"unknown coast '{word.text}'", word,
                                tuple(sorted(COAST_NAMES)))
            return code
        if tok.text == "(":
            close = next((j for j in range(self.i, len(self.toks)) if self.toks[j].text == ")"),
                         None)
            if close is None:
                raise self.fail("missing ')'", tok)
            inner = " ".join(t.low for t in self.toks[self.i + 1:close])
            code = _coast_code(inner)
            if code is None:
                raise self.fail(f"unknown coast '{inner}'", self.toks[self.i + 1]
                                if close > self.i + 1 else tok, tuple(sorted(COAST_NAMES)))
            self.i = close + 1
            return code
        return None

    def hyphenated(self, words: list[_Tok]) -> bool:
        """Whether the '-' here joins two parts of one name (no spaces around it)."""
        dash, after = self.peek(), self.peek(1)
        last = words[-1]
        if dash is None or after is None or after.low in _STOP:
            return False
        if last.col + len(last.text) != dash.col or dash.col + 1 != after.col:
            return False
        stem = normalise_name(" ".join(w.text for w in words) + " " + after.text)
        return any(name.startswith(stem) for name in self.map.names_index())

    def names(self, words: list[_Tok]) -> bool:
        try:
            self.map.lookup(" ".join(w.text for w in words))
        except UnknownNameError:
            return False
        return True

    def resolve(self, words: list[_Tok], start: int) -> str:
        text = " ".join(w.text for w in words)
        try:
            return self.map.lookup(text)
        except UnknownNameError as exc:
            for cut in range(len(words) - 1, 0, -1):
                if self.names(words[:cut]):  # 'Bel extra': a name, then a stray word
                    raise self.fail(f"unexpected '{words[cut].text}'", words[cut]) from None
            raise self.fail(str(exc), self.toks[start], exc.candidates) from None


def _coast_code(text: str) -> str | None:
    text = text.replace(".", "").strip()
    if text in _COAST_WORDS:
        return _COAST_WORDS[text]
    if text.endswith(" coast"):
        return _COAST_WORDS.get(text[: -len(" coast")].replace("-", " ").split()[0])
    return None


def parse_order(game_map: GameMap, text: str, power: str = "",
                phase: PhaseKind = PhaseKind.MOVEMENT,
                capitals: Mapping[str, str] | None = None) -> Order:
    """Read one order. ``power`` is used unless the text starts with ``Power:``.

    ``phase`` decides what ``A Tri - Alb`` and ``Disband`` mean: a move, a
    retreat, or a removal. ``capitals`` (power name -> capital, see
    :meth:`Variant.capital_names`) lets heirs be named by their power.
    """
    embassy = parse_embassy_order(text, power)
    if embassy is not None:
        return embassy
    return _Parser(game_map, text, power, phase, capitals).order()


def _space(name: str) -> str:
    return rf"(?P<{name}>[NUIBR][0-5][a-z])"


_EMBASSY = re.compile(
    rf"^(?:(?P<power>[^:]+):\s*)?E(?:mbassy)?\s+{_space('here')}\s*(?:"
    rf"(?:H|holds?)?|(?:-|->|moves?\s+to)\s*{_space('to')}|"
    rf"(?:S|supports?)\s+(?:(?P<who>[A-Za-z][A-Za-z .'-]*?)\s+)?(?:E\s+)?{_space('sup')}"
    rf"(?:\s*(?:-|->|to)\s*{_space('into')}|\s+H)?)\s*$", re.IGNORECASE)


def parse_embassy_order(text: str, power: str = "") -> EmbassyOrder | None:
    """An Embassy's Winter order as the rulebook writes it (Dissolution §11.5), or
    ``None`` if ``text`` is not one: ``E I1p - I2o``, ``E I1q S I1p - I2o``,
    ``E I1p S PA I0z - I1q``. Spaces are written slice letter, value, sorting
    letter (§11.1.2) and read in any letter case."""
    m = _EMBASSY.match(text.strip())
    if m is None:
        return None

    def space(group: str) -> str:
        raw = m.group(group)
        return f"{raw[0].upper()}{raw[1]}{raw[2].lower()}" if raw else ""

    who = (m.group("power") or "").strip() or power
    here = space("here")
    if m.group("to"):
        return EmbassyOrder(who, None, here, "-", space("to"))
    if m.group("sup"):
        return EmbassyOrder(who, None, here, "S", space("into"), space("sup"),
                            (m.group("who") or "").strip())
    return EmbassyOrder(who, None, here)


def parse_orders(game_map: GameMap, text: str, power: str = "",
                 phase: PhaseKind = PhaseKind.MOVEMENT,
                 capitals: Mapping[str, str] | None = None
                 ) -> tuple[list[Order], list[tuple[int, OrderSyntaxError]]]:
    """Read one order per line. Returns the orders and, separately, every line
    that failed with its 1-based number, so nothing is silently dropped."""
    orders: list[Order] = []
    errors: list[tuple[int, OrderSyntaxError]] = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        try:
            orders.append(parse_order(game_map, line, power, phase, capitals))
        except OrderSyntaxError as exc:
            errors.append((number, exc))
    return orders, errors


def format_order(order: Order, game_map: GameMap, long: bool = False) -> str:
    """Write an order back in players' notation: ``A Par - Bur``, or with
    ``long`` the full names, ``A Paris - Burgundy``, as a GM publishes them.
    An Embassy's order is written as the rulebook writes it (Dissolution §11.5)."""
    if isinstance(order, EmbassyOrder):
        return str(order)

    def name(location: str) -> str:
        if long:
            return game_map.name_of(location)
        province, _, coast = location.partition("/")
        return province.capitalize() + (f"/{coast}" if coast else "")

    def unit(utype: UnitType | None, location: str) -> str:
        return f"{utype.value} {name(location)}" if utype else name(location)

    head = unit(order.unit_type, order.location) if order.location else ""
    match order:
        case Move(target=target, via_convoy=via, path=path):
            hops = "".join(f" - {name(p)}" for p in path)
            return f"{head}{hops} - {name(target)}" + (" via convoy" if via else "")
        case SupportMove(supported_type=st, supported=sup, target=target):
            return f"{head} S {unit(st, sup)} - {name(target)}"
        case SupportHold(supported_type=st, supported=sup):
            return f"{head} S {unit(st, sup)}"
        case Convoy(army=army, target=target):
            return f"{head} C A {name(army)} - {name(target)}"
        case Retreat(target=target):
            return f"{head} R {name(target)}"
        case Marry(heir=heir):
            return f"{head} Marry Heir {name(heir)}"
        case HeirMarry(partner=partner, to_heir=True, at=at):
            return f"Heir {name(order.location)} Marry Heir {name(partner)}" + (
                f" at {name(at)}" if at else "")
        case HeirMarry(partner=partner):
            return f"Heir {name(order.location)} Marry {name(partner)}"
        case HeirHold():
            return f"Heir {name(order.location)} H"
        case BuildHeir():
            return f"Build Heir {name(order.location)}" if order.location else "Build Heir"
        case Hold():
            return f"{head} H"
        case Disband():
            return f"{head} Disband"
        case Build():
            return f"Build {head}"
        case Remove():
            return f"Remove {head}"
        case Waive():
            return f"Waive {name(order.location)}" if order.location else "Waive"
    return str(order)
