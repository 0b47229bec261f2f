"""GameService: games, submissions and processing; the other concerns of the
service (links, deadlines, ballots, order entry, records) are mixed in from
their own modules. See :mod:`lawspeaker.service`."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, selectinload

from ..core.board import PhaseKind, Position
from ..core.orders import HeirOrder, Order
from ..core.results import Outcome
from ..core.ruleset import Rules
from ..engine.codec import (
    allocation_to_dict,
    order_from_dict,
    order_to_dict,
    result_to_dict,
)
from ..engine.game import Game
from ..engine.phases import adjudicate, initial_position
from ..engine.posts import PostError, read_post
from ..rules.dp import Allocation
from ..store import Store
from ..store.models import (
    AdjudicationRow,
    EventRow,
    GameRow,
    LineRow,
    PhaseRow,
    PlayerRow,
    SubmissionRow,
    now,
)
from ..variants import Variant, VariantError, load_variant
from .access import AccessMixin
from .ballots import BallotsMixin
from .deadlines import DeadlinesMixin
from .entry import EntryMixin
from .export import PhaseRecord
from .lines import IGNORED, _canonical, foreign_unit, ignored_allocation, rejected_allocation
from .posts import PostsMixin, dp_limits
from .records import RecordsMixin
from .status import TurnStatus, turn_status
from .types import (
    GM,
    PUBLIC,
    Forbidden,
    GameInfo,
    HistoryEntry,
    LineReport,
    NotFound,
    PhaseChanged,
    ServiceError,
    SubmissionReport,
    Viewer,
    _Loaded,
    checked_name,
)

__all__ = [
    "GM",
    "PUBLIC",
    "Forbidden",
    "GameInfo",
    "GameService",
    "HistoryEntry",
    "LineReport",
    "NotFound",
    "PhaseChanged",
    "ServiceError",
    "SubmissionReport",
    "Viewer",
]


def _code(position: Position) -> str:
    phase = position.phase
    return f"{phase.season[:1].upper()}{phase.year}{phase.kind.value[:1].upper()}"


class GameService(RecordsMixin, AccessMixin, DeadlinesMixin, BallotsMixin, EntryMixin,
                  PostsMixin):
    """Games on a store. Every method takes the game's name.

    The mixins are the service's other concerns, each in its module (published
    record, secret links, deadlines, ready flags and draw votes, order entry);
    they share this class's internals, and a front end sees one service."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # --- games -------------------------------------------------------------------

    def create_game(self, variant: str, name: str, rules: dict[str, str] | None = None,
                    players: dict[str, str] | None = None, actor: Viewer = GM) -> GameInfo:
        self._require_gm(actor)
        name = checked_name(name, "a game name", 100)
        try:
            var = load_variant(variant)
        except VariantError as exc:
            raise ServiceError(str(exc)) from None
        rules = dict(rules or {})
        house = self._rules(var, rules)
        try:  # house rules may shape the start (Dissolution §11.2: the GM's Embassy setup)
            position = initial_position(var, house)
        except ValueError as exc:
            raise ServiceError(str(exc)) from None
        with self.store.transaction() as s:
            if s.scalar(select(GameRow.id).where(GameRow.name == name)) is not None:
                raise ServiceError(f"there is already a game named '{name}'")
            where = var.name if _bundled(var) else str(var.path)
            row = GameRow(name=name, variant=where, rules=rules)
            s.add(row)
            s.flush()
            phase = self._add_phase(s, row, var, position, 1)
            self._log(s, row, phase, actor, "created",
                      f"{var.title} game '{name}' created"
                      + (f" with house rules {_pairs(rules)}" if rules else ""))
            for power, player in (players or {}).items():
                self._set_player(s, row, var, power, player, actor)
        return self.game(name)

    def list_games(self) -> list[GameInfo]:
        with self.store.read() as s:
            names = s.scalars(select(GameRow.name).order_by(GameRow.name)).all()
        return [self.game(n) for n in names]

    def game(self, name: str) -> GameInfo:
        with self.store.read() as s:
            g = self._load(s, name)
            return GameInfo(g.row.name, g.variant.name, g.variant.title, dict(g.row.rules),
                            g.variant.phase_label(g.position.phase), g.phase.code,
                            g.position.result, {p.power: p.player for p in g.row.players},
                            g.row.created_at)

    def variant_of(self, name: str) -> Variant:
        with self.store.read() as s:
            return self._load(s, name).variant

    def set_player(self, name: str, power: str, player: str, actor: Viewer = GM) -> None:
        self._require_gm(actor)
        with self.store.transaction() as s:
            g = self._load(s, name, lock=True)
            self._set_player(s, g.row, g.variant, power, player, actor)

    def position(self, name: str, phase: str | None = None) -> Position:
        """The position at the start of a phase (positions are public)."""
        with self.store.read() as s:
            g = self._load(s, name)
            return Position.from_dict(self._find_phase(g, phase).position)

    # --- submissions ---------------------------------------------------------------

    def submit(self, name: str, power: str, text: str | bytes,
               actor: Viewer = GM, phase: str | None = None) -> SubmissionReport:
        """Take a power's post of orders and DP allocations for the current phase.

        ``phase`` (a code such as ``S1901M``, or a label) is the phase the
        post was written for: if that phase is no longer open (it was
        processed or rolled back meanwhile) nothing is kept and
        :class:`PhaseChanged` says which phase is open now. Without it the
        post is for whatever phase is open when it arrives; either way the
        report names the phase it became part of.

        Each line is checked at once and recorded with its status, the text
        kept as written. A later order for the same unit replaces the earlier
        one, a later allocation to the same unit replaces the earlier one
        (in adjustment phases a post replaces the power's earlier list of
        builds and removals); every version stays on record.
        """
        with self.store.transaction() as s:
            g = self._load(s, name, lock=True)
            power = self._power(g.variant, power)
            if not actor.may_act_for(power):
                raise Forbidden(f"{actor} may not submit orders for {power}")
            self._expect_phase(s, g, phase, "these orders were written for",
                               "Nothing was kept: check them against the board now and send "
                               "them again.")
            return self._submit(s, g, power, text, actor)

    def _submit(self, s: Session, g: _Loaded, power: str, text: str | bytes,
                actor: Viewer, keep: bool = True) -> SubmissionReport:
        """Check a post and (``keep``) record it; the caller has checked who may
        send it. Without ``keep`` nothing is written, so a check runs in a
        read-only snapshot and never waits for, or holds up, a writer."""
        if g.position.result:
            raise ServiceError(f"the game is over ({g.position.result}): there is "
                               "nothing to order")
        try:
            lines = read_post(g.variant, text, g.position.phase.kind, power)
        except PostError as exc:
            raise ServiceError(str(exc)) from None
        if not lines:
            raise ServiceError("the post has no orders in it")
        game = self._engine(g)
        active = self._active(s, g, power)
        mine = active.get(power, {})
        rows: list[LineRow] = []
        kind = g.position.phase.kind
        for line in lines:
            if line.error is not None:
                rows.append(LineRow(number=line.number, text=line.text, kind="unreadable",
                                    status="unreadable", message=line.error))
            elif line.power != power:
                rows.append(LineRow(number=line.number, text=line.text, kind="unreadable",
                                    status="unreadable",
                                    message=f"this line is for {line.power}: a post for "
                                            f"{power} orders only {power}'s units"))
            elif line.order is not None and (
                    foreign := foreign_unit(g.variant, g.position, line.order, power)):
                rows.append(LineRow(number=line.number, text=line.text, kind="unreadable",
                                    status="unreadable", message=foreign))
            elif line.order is not None:
                rows.append(LineRow(number=line.number, text=line.text, kind="order",
                                    status="accepted", slot=_slot(line.order, kind),
                                    order=order_to_dict(line.order)))
        standing = self._merge_orders(mine, _by_slot(rows, f"new.{g.phase.id}"), kind)
        standing_orders = [order_from_dict(r.order or {})
                           for rs in standing.values() for r in rs if r.kind == "order"]
        problems = self._order_problems(g, game, standing_orders)
        slots = [r.slot for r in rows if r.kind == "order" and r.slot]
        for r in rows:
            if r.kind == "order":
                problem = problems.get(_key(order_from_dict(r.order or {})))
                if problem:
                    r.status, r.message = "illegal", problem
                elif slots.count(r.slot) > 1:
                    r.status = "twice"
                    r.message = (f"this unit has two orders in this post; by the rules "
                                 f"(multiple_orders={g.rules.multiple_orders}) "
                                 + ("it will hold (DATC 4.D.3)"
                                    if g.rules.multiple_orders == "void"
                                    else "the last one counts"))
        kept = {slot: _allocation(rs[-1], power) for slot, rs in mine.items()
                if rs[-1].kind == "dp"}
        for line in lines:
            if line.allocation is None or line.power != power:
                continue
            alloc = line.allocation
            slot = f"dp {alloc.order.province}"
            others = [a for k, a in kept.items() if k != slot]
            problem = rejected_allocation(g.variant, g.position, alloc, standing_orders,
                                          others, g.rules)
            # Dissolution §5.1.2 item 4a (S9 §9.0): kept, but its DP will be ignored
            ignored = None if problem else ignored_allocation(g.variant, g.position, alloc,
                                                              g.rules)
            row = LineRow(number=line.number, text=line.text, kind="dp",
                          status="rejected" if problem else IGNORED if ignored else "accepted",
                          message=problem or ignored or "", slot=slot,
                          order=order_to_dict(alloc.order), points=alloc.points)
            rows.append(row)
            if problem is None:
                kept[slot] = alloc
        rows.sort(key=lambda r: r.number)
        if not keep:
            return self._report(s, g, power, rows, pending=True)
        sub = SubmissionRow(game_id=g.row.id, phase_id=g.phase.id, power=power,
                            author=str(actor), text=_text(text), lines=rows)
        s.add(sub)
        self._log(s, g.row, g.phase, actor, "submitted", f"{power} submitted orders")
        s.flush()
        return self._report(s, g, power, rows)

    def submissions(self, name: str, power: str, actor: Viewer = GM) -> SubmissionReport:
        """A power's standing orders and allocations this phase (author and GM)."""
        with self.store.read() as s:
            g = self._load(s, name)
            power = self._power(g.variant, power)
            if not actor.may_act_for(power):
                raise Forbidden(f"{actor} may not see {power}'s orders before they are "
                                "adjudicated")
            return self._report(s, g, power, [])

    def template(self, name: str, power: str, actor: Viewer = GM) -> str:
        """The power's units and what each may do, as a post to fill in."""
        from .templates import order_template

        with self.store.read() as s:
            g = self._load(s, name)
            power = self._power(g.variant, power)
            if not actor.may_act_for(power):
                raise Forbidden(f"{actor} may not ask for {power}'s orders")
            return order_template(g.variant, g.position, power, g.rules)

    # --- what is due -------------------------------------------------------------------

    def status(self, name: str) -> TurnStatus:
        """The phase and what it needs; public, like the board itself."""
        from dataclasses import replace

        with self.store.read() as s:
            g = self._load(s, name)
            status = turn_status(g.variant, g.position, g.rules)
            active = self._active(s, g)
            submitted = tuple(p for p in sorted(active) if active[p])
            return replace(status, submitted=submitted)

    # --- processing ----------------------------------------------------------------------

    def process(self, name: str, actor: Viewer = GM, phase: str | None = None
                ) -> PhaseRecord:
        """Adjudicate the current phase with the standing orders and advance.

        One transaction: the adjudication, the next phase and the log entry
        are written together, or (on any error, or a crash) not at all.
        ``phase`` is the phase the GM means to process: if it is no longer
        the open one (a double click, a stale page, the deadline got there
        first) nothing is done and :class:`PhaseChanged` says so.
        """
        self._require_gm(actor)
        with self.store.transaction() as s:
            g = self._load(s, name, lock=True)
            self._expect_phase(s, g, phase, "asked to process")
            return self._process(s, g, actor)

    def _process(self, s: Session, g: _Loaded, actor: Viewer) -> PhaseRecord:
        """Adjudicate in the caller's transaction (the GM's, or the scheduler's)."""
        if g.position.result:
            raise ServiceError(f"the game is over ({g.position.result})")
        active = self._active(s, g)
        orders: list[Order] = []
        allocations: list[Allocation] = []
        for power, slots in sorted(active.items()):
            for rows in slots.values():
                for row in rows:
                    if row.kind == "order":
                        orders.append(order_from_dict(row.order or {}))
                    elif row.kind == "dp":
                        allocations.append(_allocation(row, power))
        try:
            result = adjudicate(g.variant, g.position, orders, g.rules, allocations)
        except ValueError as exc:
            raise ServiceError(str(exc)) from None
        secret: dict[str, Any] = {"allocations": [], "tallies": {}, "rejected": []}
        if result.dp is not None:
            secret["allocations"] = [allocation_to_dict(a) for a in result.allocations]
            secret["tallies"] = {prov: [[order_to_dict(o), n] for o, n in tally]
                                 for prov, tally in result.dp.tallies.items()}
            secret["rejected"] = [[allocation_to_dict(a), why] for a, why in result.dp.rejected]
        adjudication = AdjudicationRow(phase_id=g.phase.id,
                                       results=[result_to_dict(r) for r in result.results],
                                       events=list(result.events), secret=secret)
        s.add(adjudication)
        s.flush()
        nxt = self._add_phase(s, g.row, g.variant, result.position, g.phase.seq + 1)
        summary = f"{g.phase.label} processed; next: {nxt.label}"
        if result.position.result:
            summary = f"{g.phase.label} processed; game over: {result.position.result}"
        self._log(s, g.row, g.phase, actor, "processed", summary,
                  adjudication=adjudication.id)
        s.flush()
        g.phases.append(nxt)
        self._phase_advanced(s, g.row)
        return self._record(s, g, g.phase, secret_too=True)

    def undo(self, name: str, to: str | None = None, actor: Viewer = GM,
             phase: str | None = None) -> str:
        """Roll back to an earlier phase (by default the one before the current
        one); its orders stand again and the GM may process it again. The
        rolled-back phases stay on record, marked undone. ``phase`` is the
        phase the GM saw as current: if the game has moved since, nothing is
        rolled back and :class:`PhaseChanged` says so."""
        self._require_gm(actor)
        with self.store.transaction() as s:
            g = self._load(s, name, lock=True)
            self._expect_phase(s, g, phase, "asked to roll back from")
            if len(g.phases) < 2:
                raise ServiceError("nothing to undo: no phase has been processed")
            target = g.phases[-2] if to is None else self._find_phase(g, to)
            if target.id == g.phase.id:
                raise ServiceError(f"{target.label} is the current phase")
            stamp = now()
            for phase in g.phases:
                if phase.seq > target.seq:
                    phase.undone_at = stamp
            for adj in s.scalars(select(AdjudicationRow).where(
                    AdjudicationRow.phase_id.in_([p.id for p in g.phases if p.seq >= target.seq]),
                    AdjudicationRow.undone_at.is_(None))):
                adj.undone_at = stamp
            self._log(s, g.row, target, actor, "undone",
                      f"rolled back from {g.phase.label} to {target.label}")
            self._phase_advanced(s, g.row)
            return target.label

    # --- internals ------------------------------------------------------------------------

    @staticmethod
    def _require_gm(actor: Viewer) -> None:
        if not actor.gm:
            raise Forbidden("only the GM may do that")

    @staticmethod
    def _rules(variant: Variant, rules: dict[str, Any]) -> Rules:
        try:
            return variant.rules.with_options(**rules)
        except ValueError as exc:
            raise ServiceError(str(exc)) from None

    @staticmethod
    def _power(variant: Variant, power: str) -> str:
        try:  # never a guess: orders must not land on a power nobody named
            return variant.power_named(power)
        except ValueError as exc:
            message = str(exc)
            if "did you mean" not in message:
                import difflib

                names = {p.lower(): p for p in variant.powers}
                close = difflib.get_close_matches(power.lower(), list(names), n=1)
                if close:
                    message += f"; did you mean {names[close[0]]}?"
            raise ServiceError(message) from None

    def _load(self, s: Session, name: str, lock: bool = False) -> _Loaded:
        """The game as it stands. ``lock``: in a write transaction, lock the
        game's row first (PostgreSQL ``FOR UPDATE``; SQLite's write lock is
        already held), so every write to a game is serialised with every other
        and reads what it writes against."""
        query = select(GameRow).where(GameRow.name == name)
        if lock:
            if s.info.get("read_only"):
                raise RuntimeError("a game is locked only in a write transaction")
            query = query.with_for_update()
        row = s.scalar(query)
        if row is None:
            names = s.scalars(select(GameRow.name)).all()
            import difflib

            close = difflib.get_close_matches(name, names, n=1)
            hint = f"; did you mean '{close[0]}'?" if close else ""
            raise NotFound(f"no game named '{name}'{hint}")
        try:
            variant = load_variant(row.variant)
        except VariantError as exc:
            raise ServiceError(f"game '{name}': its variant cannot be loaded: {exc}") from None
        phases = list(s.scalars(select(PhaseRow).where(
            PhaseRow.game_id == row.id, PhaseRow.undone_at.is_(None)).order_by(PhaseRow.seq)))
        phase = phases[-1]
        return _Loaded(row, variant, self._rules(variant, row.rules), phase,
                       Position.from_dict(phase.position), phases)

    def _expect_phase(self, s: Session, g: _Loaded, wanted: str | None, doing: str,
                      outcome: str = "Nothing was done.") -> None:
        """Refuse, changing nothing, a request meant for a phase that is no
        longer the open one; the message names what happened and what is open."""
        if wanted is None or _phase_matches(g.phase, wanted):
            return
        then = [p for p in s.scalars(select(PhaseRow).where(PhaseRow.game_id == g.row.id)
                                     .order_by(PhaseRow.seq.desc(), PhaseRow.id.desc()))
                if _phase_matches(p, wanted)]
        now_open = f"the phase now open is {g.phase.label} ({g.phase.code})"
        if g.position.result:
            now_open = f"the game is over ({g.position.result})"
        if not then:
            raise PhaseChanged(f"{doing} '{wanted}', which is not a phase of this game; "
                               f"{now_open}. {outcome}")
        old = then[0]
        if old.seq < g.phase.seq:
            what = f"{old.label} ({old.code}) has already been processed"
        else:
            what = f"{old.label} ({old.code}) has been rolled back"
        raise PhaseChanged(f"{doing} {old.label}, but {what}; {now_open}. {outcome}")

    def _engine(self, g: _Loaded) -> Game:
        return Game(g.variant, g.rules, g.position)

    @staticmethod
    def _find_phase(g: _Loaded, wanted: str | None) -> PhaseRow:
        if wanted is None:
            return g.phase
        text = wanted.strip().lower()
        for phase in g.phases:
            if text in (phase.code.lower(), phase.label.lower(), str(phase.seq)):
                return phase
        known = ", ".join(p.code for p in g.phases)
        raise NotFound(f"no phase '{wanted}' in this game (phases: {known})")

    @staticmethod
    def _add_phase(s: Session, row: GameRow, variant: Variant, position: Position,
                   seq: int) -> PhaseRow:
        phase = PhaseRow(game_id=row.id, seq=seq, code=_code(position),
                         label=variant.phase_label(position.phase),
                         position=position.to_dict())
        s.add(phase)
        s.flush()
        return phase

    @staticmethod
    def _log(s: Session, row: GameRow, phase: PhaseRow | None, actor: Viewer, kind: str,
             summary: str, **detail: Any) -> None:
        s.add(EventRow(game_id=row.id, phase_id=phase.id if phase else None, actor=str(actor),
                       kind=kind, summary=summary, detail=detail))

    def _set_player(self, s: Session, row: GameRow, variant: Variant, power: str,
                    player: str, actor: Viewer) -> None:
        power = self._power(variant, power)
        player = checked_name(player, "a player's name", 200)
        existing = s.scalar(select(PlayerRow).where(PlayerRow.game_id == row.id,
                                                    PlayerRow.power == power))
        if existing is None:
            s.add(PlayerRow(game_id=row.id, power=power, player=player))
        else:
            existing.player = player
        try:
            s.flush()
        except IntegrityError:  # pragma: no cover - two GMs at once
            raise ServiceError(f"{power} was assigned at the same time; try again") from None
        self._log(s, row, None, actor, "player", f"{power} is played by {player}")

    def _active(self, s: Session, g: _Loaded, power: str | None = None
                ) -> dict[str, dict[str, list[LineRow]]]:
        """Each power's standing lines this phase, by slot (a unit, an heir,
        DP for a unit): the lines of the latest post that filled the slot."""
        kind = g.position.phase.kind
        out: dict[str, dict[str, list[LineRow]]] = {}
        query = select(SubmissionRow).where(SubmissionRow.phase_id == g.phase.id)
        if power is not None:  # one power's lines only (a submission, a report)
            query = query.where(SubmissionRow.power == power)
        subs = s.scalars(query.order_by(SubmissionRow.id)
                         .options(selectinload(SubmissionRow.lines)))  # one query, not N
        for sub in subs:
            mine = out.setdefault(sub.power, {})
            merged = self._merge_orders(mine, _by_slot(sub.lines, str(sub.id)), kind)
            mine.clear()
            mine.update(merged)
        return {p: slots for p, slots in out.items() if slots}

    @staticmethod
    def _merge_orders(standing: dict[str, list[LineRow]], new: dict[str, list[LineRow]],
                      kind: PhaseKind) -> dict[str, list[LineRow]]:
        """A later post's lines replace the earlier ones for the same slot.
        Two orders for one unit in one post both stand, and the rules option
        ``multiple_orders`` settles them at adjudication (DATC 4.D.3)."""
        if kind is PhaseKind.ADJUSTMENT and any(rs[0].kind == "order" for rs in new.values()):
            # Builds and removals are one list: a new post replaces the old one.
            kept = {k: rs for k, rs in standing.items() if rs[0].kind != "order"}
        else:
            kept = dict(standing)
        kept.update(new)
        return kept

    def _order_problems(self, g: _Loaded, game: Game, orders: Iterable[Order]
                        ) -> dict[tuple[Any, ...], str]:
        """Why each order would be illegal, as the adjudicator itself says:
        the orders are adjudicated on their own and the illegal ones noted."""
        orders = list(orders)
        problems: dict[tuple[Any, ...], str] = {}
        if g.position.phase.kind is PhaseKind.MOVEMENT:
            for order in orders:
                problem = game.problem(order)
                if problem:
                    problems[_key(order)] = problem
            return problems
        for r in adjudicate(g.variant, g.position, orders, g.rules).results:
            if r.outcome is Outcome.ILLEGAL and not r.implicit:
                problems[_key(r.order)] = r.reason.removeprefix("Illegal: ")
        return problems

    def _report(self, s: Session, g: _Loaded, power: str, rows: list[LineRow],
                pending: bool = False) -> SubmissionReport:
        """The answer to a post: each of its lines, and what stands after it
        (``pending``: ``rows`` are a checked post not recorded, merged here)."""
        standing = self._active(s, g, power).get(power, {})
        if pending:
            standing = self._merge_orders(standing, _by_slot(rows, "check"),
                                          g.position.phase.kind)
        mine = [r for rs in standing.values() for r in rs]
        game_map = g.variant.map
        lines = tuple(LineReport(r.number, r.text, r.status, r.message or "",
                                 _canonical(r, game_map)) for r in rows)
        orders = tuple(_canonical(r, game_map) + (f"  (illegal: {r.message})"
                                                  if r.status == "illegal" else "")
                       for r in mine if r.kind == "order")
        allocations = tuple(_canonical(r, game_map) + (f"  (ignored: {r.message})"
                                                       if r.status == IGNORED else "")
                            for r in mine if r.kind == "dp")
        units = g.position.units
        targets = [(order_from_dict(r.order or {}).province, r.points or 0)
                   for r in mine if r.kind == "dp"]
        limits = dp_limits(g.variant, g.position, power,
                           [(units[p].power if p in units else "", n) for p, n in targets])
        dp_left = limits.left if limits else None
        return SubmissionReport(power, g.phase.label, lines, orders, allocations, dp_left,
                                limits, g.phase.code)


def _bundled(variant: Variant) -> bool:
    from ..variants import VARIANTS_DIR

    return variant.path is not None and variant.path.parent == VARIANTS_DIR


def _phase_matches(phase: PhaseRow, wanted: str) -> bool:
    text = wanted.strip().lower()
    return text in (phase.code.lower(), phase.label.lower())


def _slot(order: Order, kind: PhaseKind) -> str | None:
    if kind is PhaseKind.ADJUSTMENT:
        return None
    if isinstance(order, HeirOrder):
        return f"heir {order.province}"  # an heir shares its centre with a unit
    return f"unit {order.province}" if order.province else None


def _key(order: Order) -> tuple[Any, ...]:
    return (type(order).__name__, str(order), order.power)


def _by_slot(rows: Iterable[LineRow], tag: str) -> dict[str, list[LineRow]]:
    """Standing lines of one post by slot; unreadable and rejected lines stand for nothing."""
    out: dict[str, list[LineRow]] = {}
    for r in rows:
        if r.kind == "order" or (r.kind == "dp" and r.status in ("accepted", IGNORED)):
            out.setdefault(r.slot or f"#{tag}.{r.number}", []).append(r)
    return out


def _allocation(row: LineRow, power: str) -> Allocation:
    return Allocation(power, int(row.points or 0), order_from_dict(row.order or {}))


def _text(text: str | bytes) -> str:
    if isinstance(text, bytes):
        from ..engine.posts import decode_post

        return decode_post(text)
    return text


def _pairs(rules: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in sorted(rules.items()))
