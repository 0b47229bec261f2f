"""The results post a GM publishes after each phase, as text, Markdown or BBCode.

A :class:`PhaseRecord` is one processed phase in the words players read:
orders and outcomes by power, the orders chosen for neutral units, the Census
events, the centre table and what is due next. Its ``secret`` part (DP
allocations and per-unit tallies) is kept apart and printed, when asked for,
as its own section after the public text, never mixed into it: the service
decides who may ask (:mod:`lawspeaker.service`).

Tables are monospaced blocks in every format, because Discord renders no
Markdown tables and many forums no BBCode ones.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from ..core.board import PhaseKind, Position
from ..core.notation import format_order
from ..core.results import OrderResult, Outcome
from ..core.ruleset import Rules
from ..core.wording import for_players
from ..engine.codec import order_from_dict
from ..variants import Variant
from .status import TurnStatus

__all__ = ["FORMATS", "PhaseRecord", "format_explanations", "format_record", "format_status",
           "public_map_url"]

FORMATS = ("text", "markdown", "bbcode")


@dataclass(frozen=True)
class ResultLine:
    order: str
    """The order in full names: ``A Paris - Burgundy``."""
    outcome: str
    reason: str
    why: tuple[str, ...] = ()
    """The explanation, line by line (:attr:`OrderResult.explanation`): the
    strengths compared and the rule that decided; for a neutral unit, what
    this record's viewer may know of the DP behind its order."""


@dataclass(frozen=True)
class SecretPart:
    allocations: tuple[tuple[str, str, str], ...]
    """(power, ``2 DP to F Permyak - Ylg``, ``counted`` or why not)."""
    tallies: tuple[tuple[str, tuple[tuple[str, int], ...]], ...]
    """(unit, ((proposed order, DP), ...)) for each neutral unit."""
    power: str | None = None
    """Whose part this is: ``None``, the GM's (every allocation, every tally);
    a power, only its own allocations and what became of them (no tallies:
    they hold the others' votes)."""


@dataclass(frozen=True)
class PhaseRecord:
    game: str
    title: str
    phase: str
    orders: tuple[tuple[str, tuple[ResultLine, ...]], ...]
    """Major powers' orders and results, by power."""
    neutral: tuple[tuple[str, ResultLine], ...]
    """(minor power, chosen order and result): public (S9 §9.0), never who voted."""
    events: tuple[str, ...]
    has_census: bool
    status: TurnStatus
    """The position after the phase: the centre table and what is due next."""
    secret: SecretPart | None = None
    revealed: bool = False
    """The GM revealed DP after the game: the secret part is public now."""
    seq: int = 0
    """The phase's number in the game: what a link to its map names, because
    codes may repeat (two seasons with one initial) and numbers do not."""
    map_url: str | None = None
    """The public PNG of this phase's results map, to embed in the post
    (:func:`public_map_url`); ``None``: no image line."""

    @classmethod
    def build(cls, variant: Variant, rules: Rules, before: Position, after: Position,
              results: Iterable[OrderResult], events: tuple[str, ...],
              secret: dict[str, Any] | None, *, revealed: bool, game: str,
              status: TurnStatus, own: str | None = None, seq: int = 0) -> PhaseRecord:
        """``own``: the secret part is that power's allocations only."""
        game_map = variant.map
        neutral_powers = set(before.powers_in_play)
        by_power: dict[str, list[ResultLine]] = {}
        neutral: list[tuple[str, ResultLine]] = []
        rejected: dict[tuple[str, str], str] = {}
        if secret is not None:
            # Why an allocation was not counted: rejected, or ignored (Dissolution §5.1.2
            # item 4a: DP on an illegal order); keyed by power, as two may write the same.
            rejected = {(a["power"], _alloc_text(a, game_map)): variant.cite(why)
                        for a, why in secret.get("rejected", [])}
        results = list(results)
        # A unit whose order was illegal holds (or, retreating, is disbanded) all the same,
        # and the engine reports that as the unit's implicit order too: one line per unit
        # in the post, the illegal order with its reason, and what became of the unit when
        # it is more than holding (dislodged, disbanded).
        folded: dict[int, str] = {}
        folded_why: dict[int, tuple[str, ...]] = {}
        skip: set[int] = set()
        if before.phase.kind in (PhaseKind.MOVEMENT, PhaseKind.RETREAT):
            last_illegal = {(r.order.power, r.order.province): i for i, r in enumerate(results)
                            if r.outcome is Outcome.ILLEGAL}
            for i, r in enumerate(results):
                at = last_illegal.get((r.order.power, r.order.province))
                if not r.implicit or at is None:
                    continue
                skip.add(i)
                if not (r.outcome is Outcome.SUCCEEDS and r.reason == "Holds"):
                    folded[at] = r.reason
                    folded_why[at] = r.explanation
        for i, r in enumerate(results):
            if i in skip:
                continue
            reason = r.reason
            if r.implicit and r.outcome is Outcome.SUCCEEDS and reason == "Holds":
                reason = "No order: holds"
            if i in folded:
                reason = f"{reason}; {folded[i]}"
            why = tuple(for_players(game_map, line)
                        for line in (*r.explanation, *folded_why.get(i, ())))
            bought = r.order.power in neutral_powers and before.phase.kind is PhaseKind.MOVEMENT
            if bought:
                why += _dp_why(variant, r, secret, own, rejected)
            line = ResultLine(format_order(r.order, game_map, long=True), r.outcome.value,
                              for_players(game_map, reason), why)
            if bought:
                neutral.append((r.order.power, line))
            else:
                by_power.setdefault(r.order.power, []).append(line)
        part = None
        if secret is not None:
            part = SecretPart(
                tuple((a["power"], _alloc_text(a, game_map),
                       for_players(game_map, rejected.get(
                           (a["power"], _alloc_text(a, game_map)), "counted")))
                      for a in secret.get("allocations", [])
                      if own is None or a["power"] == own),
                () if own is not None else
                tuple((_unit_at(before, game_map, prov),
                       tuple((format_order(order_from_dict(o), game_map, long=True), n)
                             for o, n in tally))
                      for prov, tally in sorted(secret.get("tallies", {}).items()) if tally),
                own)
        return cls(game, variant.title, variant.phase_label(before.phase),
                   tuple(sorted((p, tuple(ls)) for p, ls in by_power.items())),
                   tuple(neutral), tuple(for_players(game_map, e) for e in events),
                   any(k is PhaseKind.CENSUS for _, k in variant.phases), status, part,
                   revealed, seq)


def _dp_why(variant: Variant, result: OrderResult, secret: dict[str, Any] | None,
            own: str | None, rejected: dict[tuple[str, str], str]) -> tuple[str, ...]:
    """What a viewer may know of the DP behind a neutral unit's order (S9 §9.0):
    the public, that DP chose it; a power, its own allocations to the unit and
    what became of them; the GM (or anyone, once DP are revealed), every
    allocation and the DP each proposed order received."""
    game_map = variant.map
    prov = result.order.province
    lines = [variant.cite("Its order was chosen by Diplomacy Points (S9 §9.0)")]
    if secret is None:
        return (*lines, variant.cite("Who allocated DP to it, and how many, stays secret "
                                     "until the game ends (S9 §9.0)"))
    if own is None:
        tally = secret.get("tallies", {}).get(prov) or []
        if tally:
            lines.append("DP it received: " + "; ".join(
                f"{format_order(order_from_dict(o), game_map, long=True)} {n} DP"
                for o, n in tally))
    for a in secret.get("allocations", []):
        if order_from_dict(a["order"]).province != prov or (own is not None
                                                             and a["power"] != own):
            continue
        text = _alloc_text(a, game_map)
        status = rejected.get((a["power"], text), "counted")
        lines.append(f"{a['power']}: {text} ({for_players(game_map, status)})")
    return tuple(lines)


def format_explanations(record: PhaseRecord, fmt: str = "text", power: str | None = None
                        ) -> str:
    """Each result of a processed phase with why, line by line (``power``: one
    power's orders only). What a line may say of DP was decided when the
    record was built for its viewer (:meth:`PhaseRecord.build`)."""
    st = _Style(fmt)
    out = [st.title(f"{record.game}: {record.phase}: why"), ""]
    groups = [(p, lines) for p, lines in record.orders if power is None or p == power]
    if power is None and record.neutral:
        groups.append(("Neutral units (orders chosen by DP)",
                       tuple(line for _, line in record.neutral)))
    for heading, lines in groups:
        out.append(st.heading(heading))
        body: list[str] = []
        for line in lines:
            body.append(st.item(st.result(line)))
            body += st.sub([why for why in line.why if why != line.reason])
        out += ["[list]", *body, "[/list]"] if st.fmt == "bbcode" else body
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def public_map_url(base: str, game: str, seq: int) -> str:
    """The address of a processed phase's results map as the public sees it.

    A processed phase's map shows its published results, the same for every
    viewer, so the link shows no secret even when someone signed in (the GM)
    opens it; it never points at the current phase, whose orders are secret."""
    return f"{base.rstrip('/')}/games/{quote(game, safe='')}/map.png?phase={seq}&orders=true"


def _alloc_text(a: dict[str, Any], game_map: Any) -> str:
    return f"{a['points']} DP to {format_order(order_from_dict(a['order']), game_map, long=True)}"


def _unit_at(position: Position, game_map: Any, prov: str) -> str:
    unit = position.units.get(prov)
    if unit is None:
        return game_map.name_of(prov)
    name = f"{unit.type.value} {game_map.name_of(unit.location)}"
    return name if game_map.name_of(unit.location) == unit.power else f"{unit.power}'s {name}"


class _Style:
    def __init__(self, fmt: str) -> None:
        if fmt not in FORMATS:
            raise ValueError(f"unknown format '{fmt}' (formats: {', '.join(FORMATS)})")
        self.fmt = fmt

    def image(self, url: str) -> list[str]:
        """The map, embedded where forums and Discord show it; plain text has
        no images, so it keeps its exact form."""
        return {"text": [], "markdown": [f"![map]({url})", ""],
                "bbcode": [f"[img]{url}[/img]", ""]}[self.fmt]

    def title(self, text: str) -> str:
        return {"text": f"{text}\n{'=' * len(text)}", "markdown": f"## {text}",
                "bbcode": f"[size=150][b]{text}[/b][/size]"}[self.fmt]

    def heading(self, text: str) -> str:
        return {"text": f"{text}\n{'-' * len(text)}", "markdown": f"**{text}**",
                "bbcode": f"[b]{text}[/b]"}[self.fmt]

    def item(self, text: str) -> str:
        return {"text": f"  {text}", "markdown": f"- {text}", "bbcode": f"[*]{text}"}[self.fmt]

    def items(self, texts: Iterable[str]) -> list[str]:
        body = [self.item(t) for t in texts]
        if self.fmt == "bbcode" and body:
            return ["[list]", *body, "[/list]"]
        return body

    def sub(self, texts: list[str]) -> list[str]:
        """Lines under an item (an explanation under its result)."""
        if not texts:
            return []
        if self.fmt == "bbcode":
            return ["[list]", *(f"[*]{t}" for t in texts), "[/list]"]
        return [("    - " if self.fmt == "markdown" else "      ") + t for t in texts]

    def result(self, line: ResultLine) -> str:
        if self.fmt == "text":
            mark = {"succeeds": " ", "fails": "*", "illegal": "!"}[line.outcome]
            return f"{mark} {line.order}: {line.reason}"
        if line.outcome == "succeeds":
            return f"{line.order}: {line.reason}"
        strong = "**{}**" if self.fmt == "markdown" else "[b]{}[/b]"
        return f"{line.order}: {strong.format(line.reason)}"

    def block(self, lines: list[str]) -> list[str]:
        if self.fmt == "markdown":
            return ["```", *lines, "```"]
        if self.fmt == "bbcode":
            return ["[code]", *lines, "[/code]"]
        return lines


def _table(status: TurnStatus) -> list[str]:
    """Centres, the count for victory where it differs (VP, or thralls' and
    vassals' centres, S9 §3.2), units, and builds or removals owed."""
    count = any(p.count != p.centres for p in status.powers) or status.uses_vp
    adjust = any(p.adjustment for p in status.powers)
    head = ["Power", "Centres"] + (["VP" if status.uses_vp else "Counted"] if count else []) \
        + ["Units"] + (["Adjust"] if adjust else [])
    rows = [tuple(head)]
    for p in status.powers:
        row = [p.power, str(p.centres)] + ([str(p.count)] if count else []) + [str(p.units)]
        if adjust:
            row.append(f"{p.adjustment:+d}" if p.adjustment else "")
        rows.append(tuple(row))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                      for i, (c, w) in enumerate(zip(r, widths, strict=True))).rstrip()
            for r in rows]


def format_status(status: TurnStatus, fmt: str = "text") -> list[str]:
    """What is due in a phase: retreats, adjustments, who must still order."""
    st = _Style(fmt)
    out: list[str] = []
    if status.result:
        return [st.heading(f"Game over: {status.result}")]
    out.append(st.heading(f"Next: {status.phase}"))
    due = []
    for need in status.retreats:
        where = ", ".join(need.options) if need.options else "nowhere: it must disband"
        due.append(f"{need.power}: {need.unit} must retreat ({where})")
    for p in status.powers:
        if p.adjustment:
            verb = "builds" if p.adjustment > 0 else "removes"
            due.append(f"{p.power} {verb} {abs(p.adjustment)}")
    due += [f"{p} may build an heir" for p in status.heir_builds]
    due += list(status.embassy_orders)
    if status.expected:
        due.append("Orders due from: " + ", ".join(status.expected))
    return out + st.items(due)


def format_record(record: PhaseRecord, fmt: str = "text", secret: bool = False) -> str:
    """The results post. With ``secret`` (GM only, or after the GM revealed DP),
    the DP section follows the public text under its own heading."""
    st = _Style(fmt)
    out = [st.title(f"{record.game}: {record.phase}"), ""]
    if record.map_url:  # under the title: the first thing a reader of the thread sees
        out += st.image(record.map_url)
    for power, lines in record.orders:
        out.append(st.heading(power))
        out += st.items(st.result(line) for line in lines)
        out.append("")
    if record.neutral:
        out.append(st.heading("Neutral units (orders chosen by DP)"))
        out += st.items(st.result(line) if line.order.split(" ", 1)[1].startswith(power)
                        else f"{power}: {st.result(line)}" for power, line in record.neutral)
        out.append("")
    if record.events:
        out.append(st.heading("Census" if record.has_census else "Supply centres"))
        out += st.items(record.events)
        out.append("")
    out.append(st.heading("Supply centres"))
    out += st.block(_table(record.status))
    out.append("")
    if record.status.favor:  # Dissolution §11.3: public, and the DP caps they imply (§11.4.1)
        out.append(st.heading("Favor (each value caps the DP on that power's units)"))
        out += st.items(record.status.favor)
        out.append("")
    out += format_status(record.status, fmt)
    if secret and record.secret is not None and (record.secret.allocations
                                                 or record.secret.tallies):
        out.append("")
        heading = "DP allocations (revealed after the game)" if record.revealed \
            else "GM only: DP allocations (secret, do not publish)"
        if record.secret.power is not None:
            heading = (f"{record.secret.power}'s DP allocations (secret: only you and the "
                       "GM see this)")
        out.append(st.heading(heading))
        out += st.items(f"{power}: {text} -> {status}"
                        for power, text, status in record.secret.allocations)
        if record.secret.tallies:
            out.append(st.heading("DP per neutral unit"))
            out += st.items(f"{unit}: " + "; ".join(f"{order} ({n} DP)" for order, n in tally)
                            for unit, tally in record.secret.tallies)
    return "\n".join(out).rstrip() + "\n"
