"""Parser for adjudicator test-case files in the jDip/godip DATC text format.

A case file is line oriented. ``VARIANT_ALL name`` names the variant for the cases that
follow (a bundled name, or a folder the runner reads relative to the case file); each
case runs from ``CASE id title`` to ``END`` and holds a phase line
(``PRESTATE_SETPHASE Spring 1901, Movement``) and sections (``PRESTATE``, ``ORDERS``,
``POSTSTATE`` ...) whose lines read ``Power: text``, or ``SUCCESS: Power: text`` in result
sections. ``#`` starts a comment anywhere on a line. This project adds the
``POSTSTATE_RESULTS`` section (expected result per order, including ``ILLEGAL``), the
``RULES key=value ...`` line, at file or case level, and sections for variants with heirs,
thralls and vassals (``PRESTATE_HEIRS``, ``POSTSTATE_POWERS`` ...).

The parser knows nothing about maps: powers, units and orders are kept as raw strings for
a runner to interpret against a variant. Malformed input raises :class:`CaseFileError`
naming the file and 1-based line. See ``docs/case-format.md`` for the full reference.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final

#: Section keywords and how their lines are read: ``units`` (``Power: text``; the legacy
#: godip form ``Power Type Place`` without the colon is also accepted), ``orders`` and
#: ``entries`` (``Power: text``), ``results`` (``OUTCOME: Power: text``) or ``flag`` (no
#: lines). Add new sections here; a keyword missing from this table is rejected as unknown.
SECTIONS: Final[Mapping[str, str]] = MappingProxyType(
    {
        "PRESTATE": "units",
        "PRESTATE_DISLODGED": "units",
        "PRESTATE_RESULTS": "results",
        "PRESTATE_SUPPLYCENTER_OWNERS": "units",
        "ORDERS": "orders",
        "POSTSTATE": "units",
        "POSTSTATE_DISLODGED": "units",
        "POSTSTATE_SAME": "flag",
        "POSTSTATE_RESULTS": "results",
        "POSTSTATE_CHOSEN": "units",  # DP variants: the order DP chose for each neutral unit
        # Variants with heirs (S9 §7.1, §10): the rest of the position, and what to expect
        # after the phase and the Census that follows it.
        "PRESTATE_HEIRS": "entries",  # Aesir: asg
        "PRESTATE_VASSALS": "entries",  # vDA: per [Controller...]
        "PRESTATE_HEIR_BUILT": "entries",  # Aesir: 3
        "PRESTATE_DROPPED": "entries",  # Aesir: eliminate
        "PRESTATE_MARRIAGES": "entries",  # Dokkalfar: Aesir at per
        "POSTSTATE_HEIRS": "entries",  # Aesir: per
        "POSTSTATE_SUPPLYCENTER_OWNERS": "units",  # Aesir: A asg
        "POSTSTATE_POWERS": "entries",  # Permyak: thrall Aesir
        "POSTSTATE_GAME": "entries",  # Game: Draw: Aesir, Jotnar, Zwergar
        "POSTSTATE_EVENTS": "entries",  # Event: Aesir captures Permyak
        # Dissolution: Favor values (§11.3) and Players in Exile (§5.3).
        "PRESTATE_FAVOR": "entries",  # Saudi Arabia: US Navy 2
        "PRESTATE_EXILES": "entries",  # Poland: exile
        # Dissolution §11, the Favor Map: any of these puts it in play (docs/case-format.md).
        "PRESTATE_EMBASSIES": "entries",  # Ethiopia: N1s U2o I1u B2n R0z
        "PRESTATE_KICKED": "entries",  # Romania: NATO (kicked this year, §11.5.3)
        "PRESTATE_RETALIATED": "entries",  # Romania: NATO (retaliation suffered, §11.5.3)
        "VIOLATIONS": "entries",  # Kazakhstan: Russia (stated, not staged: Ex 11.7.4.1)
        "POSTSTATE_EMBASSIES": "entries",  # Kazakhstan: R1t
        "POSTSTATE_FAVOR": "entries",  # Ethiopia: Russia 0
        "POSTSTATE_VIOLATIONS": "entries",  # Ukraine: Russia
        "POSTSTATE_KICKS": "entries",  # Kazakhstan: R2j - R1t
        "POSTSTATE_EMBASSY_RETREATS": "entries",  # Iran: B2n - B1p
    }
)
#: Words that may start a ``POSTSTATE_POWERS`` line's text, with the number of controllers
#: that may follow them (``vassal`` may also end with ``at <capital>``).
POWER_STATES: Final[Mapping[str, tuple[int, ...]]] = MappingProxyType({
    "major": (0,), "eliminated": (0,), "gone": (0,), "minor": (0,), "thrall": (1,),
    "vassal": (1, 2),
})
#: Sections that contradict each other: POSTSTATE_SAME says nothing moved or was dislodged.
_CONFLICTS: Final = {
    "POSTSTATE_SAME": ("POSTSTATE", "POSTSTATE_DISLODGED"),
    "POSTSTATE": ("POSTSTATE_SAME",),
    "POSTSTATE_DISLODGED": ("POSTSTATE_SAME",),
}
#: Keywords that are complete lines of their own rather than sections.
_LINE_KEYWORDS: Final = ("VARIANT_ALL", "RULES", "CASE", "PRESTATE_SETPHASE", "END")
#: Every keyword the parser recognises.
KEYWORDS: Final[frozenset[str]] = frozenset(SECTIONS) | frozenset(_LINE_KEYWORDS)
#: Outcomes allowed at the start of a result line.
OUTCOMES: Final[frozenset[str]] = frozenset({
    "SUCCESS", "FAILURE", "ILLEGAL",
    # DP variants, for allocation lines: counted, ignored (illegal order), rejected (a rule).
    "COUNTED", "IGNORED", "REJECTED",
})
#: Phase kinds allowed in ``PRESTATE_SETPHASE`` (matched case-insensitively).
PHASE_KINDS: Final[frozenset[str]] = frozenset({"movement", "retreat", "adjustment"})

_KEYWORD_RE: Final = re.compile(r"[A-Z][A-Z0-9_]+")
_PHASE_RE: Final = re.compile(r"([^\s,]+)\s+(\d+)(?:\s*,\s*|\s+)([A-Za-z]+)")
_RULE_RE: Final = re.compile(r"([A-Za-z_][A-Za-z0-9_.-]*)=(\S+)")
_MARRIAGE_RE: Final = re.compile(r"(.+?)\s+at\s+(.+)", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Entry:
    """One ``Power: text`` line: a unit, an order or a supply-centre owner."""

    power: str
    text: str
    line: int


@dataclass(frozen=True, slots=True)
class ResultEntry:
    """One ``OUTCOME: Power: text`` line; ``outcome`` is SUCCESS, FAILURE or ILLEGAL."""

    outcome: str
    power: str
    text: str
    line: int


@dataclass(frozen=True)
class Case:
    """One test case, with every name and order kept as written."""

    id: str
    title: str
    file: str
    line: int
    variant: str
    rules: Mapping[str, str]
    phase: tuple[str, int, str] | None
    prestate: tuple[Entry, ...]
    prestate_dislodged: tuple[Entry, ...]
    prestate_results: tuple[ResultEntry, ...]
    supply_centre_owners: tuple[Entry, ...] | None
    orders: tuple[Entry, ...]
    poststate: tuple[Entry, ...] | None
    poststate_dislodged: tuple[Entry, ...]
    poststate_same: bool
    poststate_results: tuple[ResultEntry, ...]
    poststate_chosen: tuple[Entry, ...] = ()
    """DP variants: the order expected to be chosen for each neutral unit."""
    prestate_heirs: tuple[Entry, ...] = ()
    """Heirs before the phase, ``Power: centre`` (married unless in the capital)."""
    prestate_vassals: tuple[Entry, ...] = ()
    """Vassals in play, ``vGR: capital [controllers]``."""
    prestate_heir_built: tuple[Entry, ...] = ()
    """``Power: year``: the Winter in which the power last built an heir."""
    prestate_dropped: tuple[Entry, ...] = ()
    """``Power: eliminate``: dropped players the GM eliminates at this Census."""
    prestate_marriages: tuple[Entry, ...] = ()
    """``Giver: Receiver at location``: vassal marriages awaiting the Census."""
    poststate_heirs: tuple[Entry, ...] | None = None
    """Exactly the heirs expected afterwards (``None``: not checked)."""
    poststate_supply_centre_owners: tuple[Entry, ...] | None = None
    """Exactly the centre owners expected afterwards (``None``: not checked)."""
    poststate_powers: tuple[Entry, ...] = ()
    """The expected state of some powers: ``Permyak: thrall Aesir``, ``Aesir: eliminated``."""
    poststate_game: Entry | None = None
    """``Game: Solo: Aesir`` / ``Game: continues``: how the game stands afterwards."""
    poststate_events: tuple[Entry, ...] = ()
    """``Event: text``: each text must be part of one of the Census's public reports."""
    prestate_favor: tuple[Entry, ...] = ()
    """Dissolution: ``Player: Nuclear power N``, a Favor value other than the §7 start."""
    prestate_exiles: tuple[Entry, ...] = ()
    """Dissolution: ``Player: exile``, a Player in Exile (§5.3)."""
    prestate_embassies: tuple[Entry, ...] = ()
    """Favor Map: ``Player: N1s U2o ...``, Embassies moved from the named setup (§11.2)."""
    prestate_kicked: tuple[Entry, ...] = ()
    """Favor Map: ``Player: Nuclear power``, kicked this Spring or Autumn (§11.5.3)."""
    prestate_retaliated: tuple[Entry, ...] = ()
    """Favor Map: ``Player: Nuclear power``, Nuclear Retaliation suffered (§11.5.3)."""
    violations: tuple[Entry, ...] = ()
    """Favor Map: ``Player: Nuclear power``, a violation stated rather than staged."""
    poststate_embassies: tuple[Entry, ...] = ()
    """Favor Map: ``Player: spaces``, the listed Embassies afterwards."""
    poststate_favor: tuple[Entry, ...] = ()
    """Favor Map: ``Player: Nuclear power N``, a Favor value afterwards (§11.3)."""
    poststate_violations: tuple[Entry, ...] | None = None
    """Favor Map: exactly the violations committed (``None``: not checked)."""
    poststate_kicks: tuple[Entry, ...] | None = None
    """Favor Map: exactly the kicks, in order, ``Player: from - to`` (``None``: not checked)."""
    poststate_embassy_retreats: tuple[Entry, ...] | None = None
    """Favor Map: exactly the Winter retreats, ``Player: from - to`` (``None``: not checked)."""

    @property
    def favor_map(self) -> bool:
        """Whether the case puts the Favor Map in play: it uses one of its sections."""
        return bool(self.prestate_embassies or self.prestate_kicked or self.prestate_retaliated
                    or self.violations or self.poststate_embassies or self.poststate_favor
                    or self.poststate_violations is not None or self.poststate_kicks is not None
                    or self.poststate_embassy_retreats is not None)


class CaseFileError(ValueError):
    """Malformed case file; ``str()`` gives ``file:line: message``."""

    def __init__(self, file: str, line: int, message: str) -> None:
        super().__init__(f"{file}:{line}: {message}")
        self.file = file
        self.line = line
        self.message = message

    def __reduce__(self) -> tuple[type[CaseFileError], tuple[str, int, str]]:
        return (type(self), (self.file, self.line, self.message))


@dataclass(slots=True)
class _OpenCase:
    id: str
    title: str
    line: int
    variant: str
    rules: dict[str, str]
    phase: tuple[str, int, str] | None = None
    sections: dict[str, list[Any]] = field(default_factory=dict)

    def build(self, file: str) -> Case:
        sections = self.sections

        def get(name: str) -> tuple[Any, ...]:
            return tuple(sections.get(name, ()))

        def optional(name: str) -> tuple[Entry, ...] | None:
            return tuple(sections[name]) if name in sections else None

        return Case(
            id=self.id,
            title=self.title,
            file=file,
            line=self.line,
            variant=self.variant,
            rules=self.rules,
            phase=self.phase,
            prestate=get("PRESTATE"),
            prestate_dislodged=get("PRESTATE_DISLODGED"),
            prestate_results=get("PRESTATE_RESULTS"),
            supply_centre_owners=optional("PRESTATE_SUPPLYCENTER_OWNERS"),
            orders=get("ORDERS"),
            poststate=optional("POSTSTATE"),
            poststate_dislodged=get("POSTSTATE_DISLODGED"),
            poststate_same="POSTSTATE_SAME" in self.sections,
            poststate_results=get("POSTSTATE_RESULTS"),
            poststate_chosen=get("POSTSTATE_CHOSEN"),
            prestate_heirs=get("PRESTATE_HEIRS"),
            prestate_vassals=get("PRESTATE_VASSALS"),
            prestate_heir_built=get("PRESTATE_HEIR_BUILT"),
            prestate_dropped=get("PRESTATE_DROPPED"),
            prestate_marriages=get("PRESTATE_MARRIAGES"),
            poststate_heirs=optional("POSTSTATE_HEIRS"),
            poststate_supply_centre_owners=optional("POSTSTATE_SUPPLYCENTER_OWNERS"),
            poststate_powers=get("POSTSTATE_POWERS"),
            poststate_game=next(iter(get("POSTSTATE_GAME")), None),
            poststate_events=get("POSTSTATE_EVENTS"),
            prestate_favor=get("PRESTATE_FAVOR"),
            prestate_exiles=get("PRESTATE_EXILES"),
            prestate_embassies=get("PRESTATE_EMBASSIES"),
            prestate_kicked=get("PRESTATE_KICKED"),
            prestate_retaliated=get("PRESTATE_RETALIATED"),
            violations=get("VIOLATIONS"),
            poststate_embassies=get("POSTSTATE_EMBASSIES"),
            poststate_favor=get("POSTSTATE_FAVOR"),
            poststate_violations=optional("POSTSTATE_VIOLATIONS"),
            poststate_kicks=optional("POSTSTATE_KICKS"),
            poststate_embassy_retreats=optional("POSTSTATE_EMBASSY_RETREATS"),
        )


class _Parser:
    def __init__(self, file: str) -> None:
        self.file = file
        self.variant = ""
        self.rules: dict[str, str] = {}
        self.case: _OpenCase | None = None
        self.section: str | None = None
        self.cases: list[Case] = []

    def error(self, lineno: int, message: str) -> CaseFileError:
        return CaseFileError(self.file, lineno, message)

    def feed(self, lineno: int, line: str) -> None:
        head, *tail = line.split(None, 1)
        rest = tail[0] if tail else ""
        if _KEYWORD_RE.fullmatch(head) and (head in KEYWORDS or ":" not in line):
            self.keyword(lineno, head, rest)
        elif self.case is None:
            raise self.error(lineno, f"line outside a case (expected CASE first): {line!r}")
        elif self.section is None or SECTIONS[self.section] == "flag":
            where = f"after {self.section}" if self.section else "not under a section keyword"
            raise self.error(lineno, f"line outside a section ({where}): {line!r}")
        else:
            kind = SECTIONS[self.section]
            entry = self.result(lineno, line) if kind == "results" else self.entry(lineno, line)
            check = _CHECKS.get(self.section)
            problem = check(entry, self.case.sections[self.section]) if check else None
            if problem is not None:
                raise self.error(lineno, f"{problem} in {self.section}, got {line!r}")
            self.case.sections[self.section].append(entry)

    def keyword(self, lineno: int, word: str, rest: str) -> None:
        if word not in KEYWORDS:
            known = ", ".join(sorted(KEYWORDS))
            raise self.error(lineno, f"unknown keyword {word!r} (known keywords: {known})")
        if word in SECTIONS or word == "END":
            if rest:
                raise self.error(lineno, f"{word} takes no argument, got {rest!r}")
            if self.case is None:
                raise self.error(lineno, f"{word} outside a case (no CASE before it)")
        if word == "END":
            assert self.case is not None
            self.cases.append(self.case.build(self.file))
            self.case = self.section = None
        elif word in SECTIONS:
            self.open_section(lineno, word)
        else:
            getattr(self, "kw_" + word.lower())(lineno, rest)

    def open_section(self, lineno: int, word: str) -> None:
        assert self.case is not None
        sections = self.case.sections
        for clash in _CONFLICTS.get(word, ()):
            if clash in sections:
                raise self.error(lineno, f"{word} conflicts with {clash} in the same case")
        sections.setdefault(word, [])
        self.section = word

    def kw_variant_all(self, lineno: int, rest: str) -> None:
        if self.case is not None:
            raise self.error(lineno, "VARIANT_ALL inside a case (missing END before it?)")
        if not rest:
            raise self.error(lineno, "VARIANT_ALL needs a variant name")
        self.variant = rest

    def kw_rules(self, lineno: int, rest: str) -> None:
        pairs: dict[str, str] = {}
        for token in rest.split():
            match = _RULE_RE.fullmatch(token)
            if match is None:
                raise self.error(lineno, f"RULES expects key=value items, got {token!r}")
            key, value = match.groups()
            if key in pairs:
                raise self.error(lineno, f"RULES gives {key!r} twice")
            pairs[key] = value
        if not pairs:
            raise self.error(lineno, "RULES needs at least one key=value item")
        if self.case is None:
            self.rules.update(pairs)
        else:
            self.case.rules.update(pairs)
            self.section = None

    def kw_case(self, lineno: int, rest: str) -> None:
        if self.case is not None:
            raise self.error(
                lineno,
                f"CASE while case {self.case.id!r} (line {self.case.line}) has no END",
            )
        if not rest:
            raise self.error(lineno, "CASE needs an id")
        self.case = _OpenCase(rest.split()[0], rest, lineno, self.variant, dict(self.rules))
        self.section = None

    def kw_prestate_setphase(self, lineno: int, rest: str) -> None:
        if self.case is None:
            raise self.error(lineno, "PRESTATE_SETPHASE outside a case (no CASE before it)")
        if self.case.phase is not None:
            raise self.error(lineno, "second PRESTATE_SETPHASE in one case")
        match = _PHASE_RE.fullmatch(rest)
        if match is None or match[3].lower() not in PHASE_KINDS:
            raise self.error(
                lineno,
                f"bad phase {rest!r}: expected 'Season Year, Movement|Retreat|Adjustment'",
            )
        self.case.phase = (match[1], int(match[2]), match[3].lower())
        self.section = None

    def entry(self, lineno: int, line: str) -> Entry:
        power, colon, text = line.partition(":")
        power, text = power.strip(), text.strip()
        if colon and power and text:
            return Entry(power, text, lineno)
        tokens = line.split()
        if not colon and len(tokens) == 3 and SECTIONS[self.section or ""] == "units":
            return Entry(tokens[0], f"{tokens[1]} {tokens[2]}", lineno)
        raise self.error(lineno, f"expected 'Power: text' in {self.section}, got {line!r}")

    def result(self, lineno: int, line: str) -> ResultEntry:
        outcome, _, rest = line.partition(":")
        outcome = outcome.strip()
        if outcome not in OUTCOMES:
            raise self.error(
                lineno,
                f"expected 'SUCCESS:', 'FAILURE:' or 'ILLEGAL:' in {self.section}, got {line!r}",
            )
        power, colon, text = rest.partition(":")
        power, text = power.strip(), text.strip()
        if not (colon and power and text):
            raise self.error(lineno, f"expected '{outcome}: Power: text', got {line!r}")
        return ResultEntry(outcome, power, text, lineno)

    def finish(self) -> list[Case]:
        if self.case is not None:
            raise self.error(self.case.line, f"case {self.case.id!r} has no END")
        return self.cases


def _heir_built(entry: Entry, _: list[Entry]) -> str | None:
    return None if entry.text.isdigit() else "expected 'Power: year' (a whole number)"


def _dropped(entry: Entry, _: list[Entry]) -> str | None:
    return None if entry.text.lower() == "eliminate" else "expected 'Power: eliminate'"


def _marriage(entry: Entry, _: list[Entry]) -> str | None:
    return None if _MARRIAGE_RE.fullmatch(entry.text) else \
        "expected 'Giver: Receiver at location'"


def _power_state(entry: Entry, _: list[Entry]) -> str | None:
    words = entry.text.split()
    wanted = " or ".join(f"'{w}'" for w in POWER_STATES)
    if words[0].lower() not in POWER_STATES:
        return f"expected 'Power: state' with the state one of {wanted}"
    counts = POWER_STATES[words[0].lower()]
    rest = words[1:]
    if words[0].lower() == "vassal" and len(rest) >= 2 and rest[-2].lower() == "at":
        rest = rest[:-2]
    if (0 in counts) != (not rest):  # how many powers the words name, the runner knows
        return (f"'{words[0]}' takes no powers after it" if 0 in counts
                else f"'{words[0]}' takes its controlling power(s) after it")
    return None


_Check = Callable[[Entry, list[Entry]], "str | None"]
_SPACE: Final = r"[NUIBR][0-5][a-z]"


def _spaces(entry: Entry, _: list[Entry]) -> str | None:
    """Favor Map spaces (Dissolution §11.1.2): ``N1s U2o I1u``."""
    return None if re.fullmatch(rf"{_SPACE}(\s+{_SPACE})*", entry.text) else \
        "expected 'Player: spaces', like 'Ethiopia: N1s U2o I1u B2n R0z'"


def _step(entry: Entry, _: list[Entry]) -> str | None:
    """An Embassy's kick or Winter retreat: ``R2j - R1t``."""
    return None if re.fullmatch(rf"{_SPACE}\s*-\s*{_SPACE}", entry.text) else \
        "expected 'Player: from - to', like 'Kazakhstan: R2j - R1t'"


def _labelled(label: str, once: bool = False) -> _Check:
    def check(entry: Entry, earlier: list[Entry]) -> str | None:
        if entry.power != label:
            return f"expected '{label}: text'"
        if once and earlier:
            return f"only one '{label}:' line is allowed"
        return None
    return check


#: Extra checks of the lines of some sections: a message, or ``None`` if the line is fine.
_CHECKS: Final[Mapping[str, _Check]] = {
    "PRESTATE_HEIR_BUILT": _heir_built,
    "PRESTATE_DROPPED": _dropped,
    "PRESTATE_MARRIAGES": _marriage,
    "POSTSTATE_POWERS": _power_state,
    "POSTSTATE_GAME": _labelled("Game", once=True),
    "POSTSTATE_EVENTS": _labelled("Event"),
    "PRESTATE_FAVOR": lambda entry, _: None if re.fullmatch(r".+\s\d+", entry.text)
    else "expected 'Player: Nuclear power N', like 'Saudi Arabia: US Navy 2'",
    "PRESTATE_EXILES": lambda entry, _: None if entry.text.lower() == "exile"
    else "expected 'Player: exile'",
    "PRESTATE_EMBASSIES": _spaces,
    "POSTSTATE_EMBASSIES": _spaces,
    "POSTSTATE_FAVOR": lambda entry, _: None if re.fullmatch(r".+\s\d+", entry.text)
    else "expected 'Player: Nuclear power N', like 'Ethiopia: Russia 0'",
    "POSTSTATE_KICKS": _step,
    "POSTSTATE_EMBASSY_RETREATS": _step,
}


def marriage_parts(text: str) -> tuple[str, str]:
    """``Aesir at per`` -> (``Aesir``, ``per``): a ``PRESTATE_MARRIAGES`` line's text."""
    match = _MARRIAGE_RE.fullmatch(text)
    if match is None:
        raise ValueError(f"expected 'Receiver at location', got {text!r}")
    return match[1].strip(), match[2].strip()


def parse_case_file(text: str, file: str = "<string>") -> list[Case]:
    """Parse the text of a case file into its cases, in file order."""
    parser = _Parser(file)
    for lineno, raw in enumerate(text.removeprefix("\ufeff").split("\n"), 1):
        line = raw.partition("#")[0].strip()
        if line:
            parser.feed(lineno, line)
    return parser.finish()


def read_case_file(path: str | os.PathLike[str]) -> list[Case]:
    """Read and parse a UTF-8 case file; errors name the path as given."""
    name = os.fspath(path)
    with open(name, encoding="utf-8") as handle:
        return parse_case_file(handle.read(), name)
