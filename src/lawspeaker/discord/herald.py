"""The herald: what the bot posts without being asked.

A poller the bot runs every few seconds (:meth:`Herald.tick`), a function of
the store alone, so it sees every change whoever made it: the GM's
``/gm process`` here, the web page's **Process**, the scheduler at a
deadline (in ``lawspeaker serve`` or in the bot itself). The service knows
nothing of Discord; the herald reads it as any front end does.

For each game's public channel:

* a new phase: the results post of the phase just processed (markdown, public:
  never DP until the GM reveals them), its results map as a PNG, and the new
  phase with its deadline; a rollback: which phase is open again;
* a deadline near: a reminder to each power that has not sent orders, in its
  private channel if it has one, else in a DM to its player (never naming
  anything but the power and the deadline);
* a preview the scheduler made at a deadline (house rule ``review=yes``): a DM
  to each GM of the game bound here, saying that results wait for review and
  when they are published by themselves (never the results: ``/gm preview``
  shows them to a GM). Nothing of a preview reaches a channel: the public
  channel gets the results once the GM (or the scheduler, after
  ``review_hours``) publishes them, as for any processed phase.

What was posted is kept in the store (the channel's binding), so a restarted
bot posts nothing twice and several bots on one database do not either: each
claims a post in one locked write before it sends it
(:meth:`GameService.claim_post`); a crash between the two loses a post,
never doubles one. The GMs' DM about a preview the scheduler made is claimed
the same way (:meth:`GameService.claim_preview_notice`): told once per preview.
"""

from __future__ import annotations

import logging
import threading
from datetime import UTC, datetime, timedelta

from ..service import PUBLIC, SCHEDULER, GameService, ServiceError
from ..service.chat import ChannelBinding
from .interaction import PLATFORM, Attachment, Reply
from .text import publish_time

__all__ = ["REMIND_BEFORE", "Herald"]

log = logging.getLogger("lawspeaker.discord.herald")

REMIND_BEFORE = timedelta(hours=12)
"""How long before the deadline players who have not sent orders are reminded
(at most a quarter of the phase, so a short phase is not reminded at its start)."""
MAP_WIDTH = 1600


class Herald:
    """Results, maps, new phases and reminders for every bound game."""

    def __init__(self, service: GameService, remind_before: timedelta = REMIND_BEFORE,
                 scheduler: bool = True) -> None:
        self.service = service
        self.remind_before = remind_before
        self.scheduler = scheduler
        """Also process due games (the scheduler is safe to run beside
        ``lawspeaker serve``'s: a phase is processed once)."""
        self._lock = threading.Lock()

    def tick(self, at: datetime | None = None) -> list[Reply]:
        """Everything to post now, each reply aimed at a channel or a user
        (``at``: naive UTC, as the store keeps times; default now)."""
        if self.scheduler:
            self.service.process_due(at)
        out: list[Reply] = []
        games = sorted({b.game for b in self.service.channels(PLATFORM)})
        for name in games:
            try:
                out += self.announce(name)
                out += self.remind(name, at)
                out += self.previews(name)
            except ServiceError as exc:  # a game deleted or broken: the others go on
                log.warning("herald: %s: %s", name, exc)
        return out

    def announce(self, name: str) -> list[Reply]:
        """The results and the new phase, in each public channel not yet told."""
        with self._lock:
            phase_id, label, result = self.service.progress(name, actor=PUBLIC)
            out: list[Reply] = []
            for binding in self.service.channels(PLATFORM, name):
                if binding.power is not None or binding.announced_phase_id == phase_id:
                    continue
                mine, before = self.service.claim_post(PLATFORM, binding.channel,
                                                       "announced", phase_id)
                if not mine:
                    continue  # another bot on this database posts it
                back = before is not None and phase_id < before
                out += self._rolled_back(binding, label) if back else \
                    self._results(binding, label, result)
            return out

    def _results(self, binding: ChannelBinding, label: str, result: str | None) -> list[Reply]:
        name = binding.game
        post = self.service.export(name, fmt="markdown", actor=PUBLIC)
        record = self.service.record(name, actor=PUBLIC)
        png = self.service.picture(name, str(record.seq), orders=True, fmt="png",
                                   actor=PUBLIC, max_width=MAP_WIDTH)
        assert isinstance(png, bytes)
        files = (Attachment(f"{_slug(name)}-{record.seq}.png", png),)
        out = [Reply(post, channel=binding.channel),
               Reply(f"{name}, {record.phase}: the results map", files=files,
                     channel=binding.channel)]
        if result:
            out.append(Reply(f"**{name}** is over: {result}", channel=binding.channel))
        else:
            deadline = self.service.schedule(name, actor=PUBLIC).deadline_text()
            out.append(Reply(f"**{name}**: {label} begins; {deadline}. Send your orders in "
                             "your private channel or a DM to the bot.",
                             channel=binding.channel))
        return out

    def _rolled_back(self, binding: ChannelBinding, label: str) -> list[Reply]:
        deadline = self.service.schedule(binding.game, actor=PUBLIC).deadline_text()
        return [Reply(f"**{binding.game}**: the GM rolled the game back; {label} is open "
                      f"again ({deadline}). Orders given for it before stand again.",
                      channel=binding.channel)]

    def remind(self, name: str, at: datetime | None = None) -> list[Reply]:
        """Once per phase, when the deadline is near: each power whose orders are missing."""
        schedule = self.service.schedule(name, actor=PUBLIC)
        if schedule.deadline is None or schedule.paused:
            return []
        now = at.replace(tzinfo=UTC) if at is not None else datetime.now(UTC)
        window = self.remind_before
        if schedule.phase_minutes:
            window = min(window, timedelta(minutes=schedule.phase_minutes) / 4)
        if not now >= schedule.deadline - window:
            return []
        with self._lock:
            phase_id, label, result = self.service.progress(name, actor=PUBLIC)
            bindings = self.service.channels(PLATFORM, name)
            public = [b for b in bindings if b.power is None]
            if result or not public or public[0].reminded_phase_id == phase_id:
                return []
            if not self.service.claim_post(PLATFORM, public[0].channel, "reminded",
                                           phase_id)[0]:
                return []
            missing = self.service.status(name, actor=PUBLIC).missing
            private = {b.power: b.channel for b in bindings if b.power is not None}
            holders = self.service.chat_holders(PLATFORM, name, actor=PUBLIC)
            out = []
            for power in missing:
                text = (f"Reminder: {name}, {label}: no orders from {power} yet; "
                        f"{schedule.deadline_text()}.")
                if power in private:
                    out.append(Reply(text, channel=private[power]))
                else:
                    out += [Reply(text, user=user) for user in holders.get(power, [])]
            return out


    def previews(self, name: str) -> list[Reply]:
        """Once per preview the scheduler made: a DM to each GM of the game bound
        here that results wait for review, and when they publish themselves.
        The preview is read as the GM it is told to (the service decides)."""
        if not self.service.under_review(name, actor=PUBLIC):
            return []
        gms = self.service.chat_holders(PLATFORM, name, actor=PUBLIC).get("gm", [])
        if not gms:
            return []
        gm = self.service.chat_viewer(PLATFORM, gms[0], name)
        found = self.service.preview(name, actor=gm)
        if found is None or found.made_by != str(SCHEDULER):
            return []  # a GM made it, and saw it
        if not self.service.claim_preview_notice(name, found.id, actor=gm):
            return []  # told already (by this bot, a restarted one or another)
        stale = f" It is out of date ({found.stale})." if found.stale else ""
        text = (f"**{name}**: the deadline of {found.phase} has passed and its results wait "
                f"for your review (next: {found.next_phase}); players see nothing until "
                f"they are published.{stale} `/gm preview game:{name}` shows them to you, "
                f"`/gm publish game:{name}` posts them, `/gm discard game:{name}` drops "
                f"them. Unless you do, they are published by themselves at {publish_time(found)}.")
        return [Reply(text, user=user) for user in gms]


def _slug(name: str) -> str:
    return "".join(ch if ch.isalnum() else "-" for ch in name).strip("-").lower() or "map"
