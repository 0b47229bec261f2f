"""GameService: the one object every front end holds, a facade over the
service's parts.

Each part owns one job and reaches a game only through the loader
(:class:`~.loader.GameLoader`, which owns the store and the game's lock):

* :class:`~.setup.GameSetup` — games, what each is, positions, house rules;
* :class:`~.seats.Seats` — players, and the GM's drops and exile removals;
* :class:`~.entry.OrderEntry` — posts taken and checked line by line, what is due;
* :class:`~.posts.Posts` — a power's posts this phase as sent;
* :class:`~.processing.Processing` — the service's processing step, and rollback;
* :class:`~.review.Review` — results the GM reviews before publishing (``review=yes``);
* :mod:`.actions` — the GM's actions, each defined once; :meth:`GameService.act` runs one;
* :class:`~.records.Records` — the published record: history, results, maps;
* :class:`~.access.Access` — secret links and browser sessions;
* :class:`~.deadlines.Deadlines` — deadlines and the scheduler (given the step);
* :class:`~.ballots.Ballots` — ready flags and draw votes;
* :class:`~.chat.ChatBindings` — chat channels and users bound to games and seats;
* :class:`~.backdrops.Backdrops` — the official map image the GM uploaded;
* :class:`~.sandbox.Sandbox` — what-if adjudication that writes nothing;
* :class:`~.bots.BotSeats` — bots in seats: seated by the GM or after missed
  deadlines, posting as players do.

The methods here only hand each call to its part, with the defaults a front
end relies on; what a call does is documented where it is done.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from sqlalchemy.orm import Session

from ..core.board import Position
from ..store import Store
from ..variants import Variant
from .access import Access, Grant
from .actions import ActionResult, perform
from .backdrops import BackdropInfo, Backdrops
from .ballots import Ballots, DrawTally
from .bots import BotSeats
from .chat import ChannelBinding, ChatBindings, Seat
from .deadlines import Deadlines, Schedule
from .entry import OrderEntry, UnitOptions
from .export import PhaseRecord
from .loader import GameLoader, LoadedGame
from .posts import PostRecord, Posts
from .processing import Processing
from .records import Records
from .review import Preview, Review
from .sandbox import Sandbox, SandboxRun
from .seats import Seats
from .setup import GameSetup
from .status import TurnStatus

if TYPE_CHECKING:
    from ..render.backdrop import Backdrop
from .types import GameInfo, HistoryEntry, SubmissionReport, Viewer

__all__ = ["GameService"]


class GameService:
    """Games on a store. Every method takes the game's name.

    The parts are attributes (``loader``, ``setup``, ``seats``, ``entry``,
    ``post_log``, ``processing``, ``review``, ``records``, ``access``, ``deadlines``,
    ``ballots``, ``chat``, ``backdrops``, ``sandbox``, ``bots``); a front end calls the
    methods below."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.loader = GameLoader(store)
        self.seats = Seats(self.loader)
        self.setup = GameSetup(self.loader, self.seats)
        self.entry = OrderEntry(self.loader)
        self.post_log = Posts(self.loader)
        self.records = Records(self.loader)
        self.processing = Processing(self.loader, self.records)
        self.ballots = Ballots(self.loader)
        self.bots = BotSeats(self.loader, self.seats, self.entry, self.ballots)
        self.review = Review(self.loader, self.processing, self.records, self.bots.note_missed)
        self.deadlines = Deadlines(self.loader, process=self._deadline_step)
        self.access = Access(self.loader)
        self.sandbox = Sandbox(self.loader)
        self.chat = ChatBindings(self.loader)
        self.backdrops = Backdrops(self.loader)

    # --- games (setup) ---------------------------------------------------------------------

    def create_game(self, variant: str, name: str, rules: dict[str, str] | None = None,
                    players: dict[str, str] | None = None, *, actor: Viewer) -> GameInfo:
        return self.setup.create_game(variant, name, rules, players, actor)

    def list_games(self) -> list[GameInfo]:
        return self.setup.list_games()

    def game(self, name: str, *, actor: Viewer) -> GameInfo:
        return self.setup.game(name)

    def variant_of(self, name: str, *, actor: Viewer) -> Variant:
        return self.setup.variant_of(name)

    def position(self, name: str, phase: str | None = None, *, actor: Viewer) -> Position:
        """The position at the start of a phase (positions are public)."""
        return self.setup.position(name, phase)

    def set_rule(self, name: str, key: str, value: str, *, actor: Viewer) -> None:
        """Change a house rule; it applies from the current phase on."""
        self.setup.set_rule(name, key, value, actor)

    def rules_in_force(self, name: str, *, actor: Viewer) -> list[tuple[str, str, bool]]:
        return self.setup.rules_in_force(name)

    # --- seats -------------------------------------------------------------------------------

    def set_player(self, name: str, power: str, player: str, *, actor: Viewer) -> None:
        self.seats.set_player(name, power, player, actor)

    def seat_bot(self, name: str, power: str, bot: str, *, actor: Viewer) -> None:
        """Give ``power``'s seat to a bot (by name) until the GM names a player."""
        self.bots.seat(name, power, bot, actor)

    def bot_seats(self, name: str, *, actor: Viewer) -> dict[str, str]:
        """Power -> bot, for the seats bots hold."""
        return self.bots.seated(name)

    def force_elimination(self, name: str, power: str, *, actor: Viewer) -> None:
        """S9 §3.4.2; OOD §3.3.2: eliminated at the next Census."""
        self.seats.force_elimination(name, power, actor)

    def remove_exile(self, name: str, power: str, *, actor: Viewer) -> None:
        """Dissolution §5.3: a Player in Exile removed from the game."""
        self.seats.remove_exile(name, power, actor)

    # --- order entry ---------------------------------------------------------------------

    def submit(self, name: str, power: str, text: str | bytes, *, actor: Viewer,
               phase: str | None = None) -> SubmissionReport:
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
        return self.entry.submit(name, power, text, actor, phase)

    def check(self, name: str, power: str, text: str | bytes, *, actor: Viewer) -> SubmissionReport:
        """What :meth:`submit` would answer, with nothing kept."""
        return self.entry.check(name, power, text, actor)

    def submissions(self, name: str, power: str, *, actor: Viewer) -> SubmissionReport:
        return self.entry.submissions(name, power, actor)

    def template(self, name: str, power: str, *, actor: Viewer) -> str:
        return self.entry.template(name, power, actor)

    def due(self, name: str, power: str, *, actor: Viewer) -> tuple[list[str], str]:
        return self.entry.due(name, power, actor)

    def unit_options(self, name: str, power: str, *, actor: Viewer) -> list[UnitOptions]:
        return self.entry.unit_options(name, power, actor)

    def status(self, name: str, *, actor: Viewer) -> TurnStatus:
        return self.entry.status(name)

    def posts(self, name: str, power: str | None, *, actor: Viewer) -> list[PostRecord]:
        return self.post_log.posts(name, power, actor)

    # --- processing --------------------------------------------------------------------

    def process(self, name: str, *, actor: Viewer, phase: str | None = None
                ) -> PhaseRecord | Preview:
        """Adjudicate the current phase with the standing orders and advance, or,
        with the house rule ``review=yes``, into a :class:`~.review.Preview` only
        the GM sees (:mod:`.review`; the game stays in its phase).

        One transaction: the adjudication, the next phase and the log entry
        are written together, or (on any error, or a crash) not at all.
        ``phase`` is the phase the GM means to process: if it is no longer
        the open one (a double click, a stale page, the deadline got there
        first) nothing is done and :class:`PhaseChanged` says so.
        """
        done = self.review.process(name, actor, phase)
        if isinstance(done, PhaseRecord):
            self.bots.play(name)  # seated bots post for the phase that opened
        return done

    def publish(self, name: str, *, actor: Viewer, phase: str | None = None) -> PhaseRecord:
        """Make the open preview the next phase, exactly as a Process without review
        would; :class:`~.review.PreviewStale` if a post, a rule change or a rollback
        since makes it out of date, :class:`PhaseChanged` if there is none (a double
        click publishes once)."""
        record = self.review.publish(name, actor, phase)
        self.bots.play(name)
        return record

    def discard(self, name: str, *, actor: Viewer, phase: str | None = None) -> str:
        """Drop the open preview; the game stays in its phase (its label)."""
        return self.review.discard(name, actor, phase)

    def preview(self, name: str, *, actor: Viewer) -> Preview | None:
        """The preview waiting for the GM's review, if any (GM only)."""
        return self.review.preview(name, actor)

    def claim_preview_notice(self, name: str, preview: int, *, actor: Viewer) -> bool:
        """Whether this caller is the one to tell the GM that preview ``preview``
        waits (recorded once, whoever asks first)."""
        return self.review.claim_notice(name, preview, actor)

    def under_review(self, name: str, *, actor: Viewer) -> bool:
        """Whether results are being reviewed (public: never what they are)."""
        return self.review.pending(name)

    def preview_picture(self, name: str, *, actor: Viewer, fmt: str = "svg",
                        board: str = "map", max_width: int | None = None,
                        palette: str | None = None) -> str | bytes:
        """The preview's results map (GM only)."""
        return self.review.picture(name, actor, fmt, board, max_width, palette)

    # --- the GM's actions (service/actions.py) -----------------------------------------

    def act(self, name: str, action: str, args: dict[str, object], *, actor: Viewer
            ) -> ActionResult:
        """Run a GM action of :data:`.actions.ACTIONS` with raw arguments (form
        fields, JSON values, command-line words): checked, run and answered alike
        for every front end."""
        return perform(self, name, action, args, actor)

    def undo(self, name: str, to: str | None = None, *, actor: Viewer, phase: str | None = None
            ) -> str:
        """Roll back to an earlier phase (by default the one before the current
        one); its orders stand again and the GM may process it again. The
        rolled-back phases stay on record, marked undone. ``phase`` is the
        phase the GM saw as current: if the game has moved since, nothing is
        rolled back and :class:`PhaseChanged` says so."""
        undone = self.processing.undo(name, to, actor, phase)
        self.bots.play(name)
        return undone

    # --- the what-if sandbox -----------------------------------------------------------

    def whatif(self, name: str, steps: list[str], *, actor: Viewer, phase: str | None = None,
               submitted: bool = True) -> SandboxRun:
        """Adjudicate orders that are not sent, from the current phase, for as
        many phases as ``steps`` has posts; nothing is written anywhere (see
        :mod:`.sandbox`: a player's sandbox starts from that player's own
        standing orders and DP only)."""
        return self.sandbox.run(name, steps, actor, phase=phase, submitted=submitted)

    # --- the published record ----------------------------------------------------------

    def history(self, name: str, *, actor: Viewer) -> list[HistoryEntry]:
        return self.records.history(name, actor)

    def record(self, name: str, phase: str | None = None, *, actor: Viewer) -> PhaseRecord:
        return self.records.record(name, phase, actor)

    def export(self, name: str, phase: str | None = None, fmt: str = "text", gm: bool = False,
               *, actor: Viewer, mine: bool = False, map_base: str | None = None) -> str:
        return self.records.export(name, phase, fmt, gm, actor, mine, map_base)

    def explain(self, name: str, phase: str | None = None, *, actor: Viewer,
                power: str | None = None, fmt: str = "text", gm: bool = False) -> str:
        """Why each result of a processed phase is what it is (see
        :meth:`.records.Records.explain`)."""
        return self.records.explain(name, phase, actor, power, fmt, gm)

    def picture(self, name: str, phase: str | None = None, orders: bool = False,
                fmt: str = "svg", *, actor: Viewer, board: str = "map",
                max_width: int | None = None, palette: str | None = None,
                backdrop: Backdrop | None = None) -> str | bytes:
        return self.records.picture(name, phase, orders, fmt, actor, board, max_width, palette,
                                    backdrop)

    # --- the official map image (docs/maps.md) -----------------------------------------

    def upload_backdrop(self, name: str, image: bytes, layout: bytes | str, *, actor: Viewer,
                        image_name: str = "the image") -> BackdropInfo:
        return self.backdrops.upload(name, image, layout, actor, image_name)

    def remove_backdrop(self, name: str, *, actor: Viewer) -> bool:
        return self.backdrops.remove(name, actor)

    def backdrop(self, name: str, *, actor: Viewer) -> BackdropInfo | None:
        return self.backdrops.info(name)

    def map_backdrop(self, name: str, *, actor: Viewer) -> Backdrop | None:
        """The image the game's maps are drawn over (public: it is the board)."""
        return self.backdrops.image_of(name)

    def progress(self, name: str, *, actor: Viewer) -> tuple[int, str, str | None]:
        return self.records.progress(name)

    def reveal_dp(self, name: str, *, actor: Viewer) -> None:
        """After the game, the GM may reveal every DP allocation (S9 §9.0)."""
        self.records.reveal_dp(name, actor)

    # --- links and sessions ------------------------------------------------------------

    def issue_link(self, name: str | None, role: str = "gm", *, actor: Viewer) -> str:
        return self.access.issue_link(name, role, actor)

    def revoke_links(self, name: str, role: str, *, actor: Viewer) -> int:
        return self.access.revoke_links(name, role, actor)

    def linked_seats(self, name: str, *, actor: Viewer) -> list[str]:
        return self.access.linked_seats(name, actor)

    def redeem(self, token: str) -> Grant:
        return self.access.redeem(token)

    def grant(self, link_id: int) -> Grant | None:
        return self.access.grant(link_id)

    def open_session(self) -> str:
        return self.access.open_session()

    def session_live(self, sid: object) -> bool:
        return self.access.session_live(sid)

    def end_session(self, sid: object) -> None:
        self.access.end_session(sid)

    # --- deadlines ---------------------------------------------------------------------

    def set_schedule(self, name: str, phase_minutes: int | None, grace_minutes: int = 0,
                     timezone: str = "UTC", *, actor: Viewer) -> Schedule:
        return self.deadlines.set_schedule(name, phase_minutes, grace_minutes, timezone, actor)

    def schedule(self, name: str, *, actor: Viewer) -> Schedule:
        return self.deadlines.schedule(name)

    def pause(self, name: str, *, actor: Viewer) -> None:
        self.deadlines.pause(name, actor)

    def resume(self, name: str, *, actor: Viewer) -> None:
        self.deadlines.resume(name, actor)

    def extend(self, name: str, minutes: int, *, actor: Viewer) -> Schedule:
        return self.deadlines.extend(name, minutes, actor)

    def due_games(self, at: datetime | None = None) -> list[str]:
        return self.deadlines.due_games(at)

    def process_due(self, at: datetime | None = None) -> list[str]:
        done = self.deadlines.process_due(at)
        for name in done:
            self.bots.play(name)  # seated bots post for the phase that opened
        return done

    def _deadline_step(self, s: Session, g: LoadedGame, actor: Viewer) -> object:
        """The scheduler's step: missed deadlines noted (and seats given to bots
        under ``bot_after_missed``), then the service's processing step, or with
        review on a preview for the GM (:meth:`.review.Review.at_deadline`)."""
        return self.review.at_deadline(s, g)

    # --- ready flags and draw votes ------------------------------------------------------

    def set_ready(self, name: str, power: str, ready: bool, *, actor: Viewer) -> None:
        self.ballots.set_ready(name, power, ready, actor)

    def ready(self, name: str, *, actor: Viewer) -> tuple[str, ...]:
        return self.ballots.ready(name)

    def vote_draw(self, name: str, power: str, yes: bool, *, actor: Viewer) -> DrawTally:
        return self.ballots.vote_draw(name, power, yes, actor)

    def my_vote(self, name: str, power: str, *, actor: Viewer) -> bool | None:
        return self.ballots.my_vote(name, power, actor)

    def draw_tally(self, name: str, *, actor: Viewer) -> DrawTally:
        return self.ballots.draw_tally(name)

    def set_draw_rule(self, name: str, rule: str, *, actor: Viewer) -> None:
        self.ballots.set_draw_rule(name, rule, actor)

    # --- chat front ends (channels and users bound to games and seats) -------------------

    def bind_channel(self, platform: str, guild: str, channel: str, name: str,
                     power: str | None = None, *, actor: Viewer) -> ChannelBinding:
        return self.chat.bind_channel(platform, guild, channel, name, power, actor)

    def unbind_channel(self, platform: str, channel: str, *, actor: Viewer) -> str:
        return self.chat.unbind_channel(platform, channel, actor)

    def channel(self, platform: str, channel: str) -> ChannelBinding | None:
        return self.chat.channel(platform, channel)

    def channels(self, platform: str, name: str | None = None) -> list[ChannelBinding]:
        return self.chat.channels(platform, name)

    def claim_post(self, platform: str, channel: str, what: str, phase_id: int
                   ) -> tuple[bool, int | None]:
        return self.chat.claim(platform, channel, what, phase_id)

    def bind_member(self, platform: str, user: str, name: str, role: str, *, actor: Viewer) -> Seat:
        return self.chat.bind_member(platform, user, name, role, actor)

    def chat_viewer(self, platform: str, user: str, name: str) -> Viewer:
        return self.chat.viewer(platform, user, name)

    def chat_seats(self, platform: str, user: str) -> list[Seat]:
        return self.chat.seats_of(platform, user)

    def chat_holders(self, platform: str, name: str, *, actor: Viewer) -> dict[str, list[str]]:
        return self.chat.holders(platform, name)
