"""What the bot writes: reports, the turn status, and Discord's length limit."""

from __future__ import annotations

from datetime import UTC

from ..service.deadlines import Schedule
from ..service.review import Preview
from ..service.status import TurnStatus
from ..service.types import SubmissionReport

__all__ = ["LIMIT", "chunks", "publish_time", "report_text", "status_text"]

LIMIT = 2000
"""Discord refuses a message longer than this many characters."""


def chunks(text: str, limit: int = LIMIT) -> list[str]:
    """``text`` in pieces of at most ``limit`` characters, cut between lines
    where it can be (a code block cut in two is closed and opened again)."""
    pieces: list[str] = []
    current = ""
    fence = False
    for line in text.splitlines():
        while len(line) > limit - 8:  # one line longer than a message
            head, line = line[: limit - 8], line[limit - 8:]
            pieces, current = _flush(pieces, current, fence), head
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) + (4 if fence else 0) > limit:
            pieces.append(current + ("\n```" if fence else ""))
            current = ("```\n" if fence else "") + line
        else:
            current = candidate
        if line.strip().startswith("```"):
            fence = not fence
    if current.strip():
        pieces.append(current)
    return pieces or [""]


def _flush(pieces: list[str], current: str, fence: bool) -> list[str]:
    if current:
        pieces.append(current + ("\n```" if fence else ""))
    return pieces


def report_text(report: SubmissionReport, sent: bool = True) -> str:
    """A submission's answer: each line's check, the standing orders and the
    DP allocations with what is left (secret: the power's player and the GM)."""
    out = []
    if report.lines:
        out.append("```")
        out += [str(line) for line in report.lines]
        out.append("```")
    verb = "standing orders" if sent else "orders if you send this"
    out.append(f"**{report.power}, {report.phase}**: {verb}")
    out += [f"- {text}" for text in report.orders] or ["- (none)"]
    if report.limits is not None or report.allocations:
        left = report.limits.left if report.limits else report.dp_left
        out.append(f"DP allocations (secret; {left} DP left):")
        out += [f"- {text}" for text in report.allocations] or ["- (none)"]
        if report.limits is not None:
            out += [f"- {cap.on}: {cap.spent} of {cap.cap} DP ({cap.rule})"
                    for cap in report.limits.caps]
    if report.lines and not report.ok:
        out.append("Some lines need attention (above).")
    return "\n".join(out)


def status_text(name: str, st: TurnStatus, schedule: Schedule | None = None,
                ready: tuple[str, ...] = (), reviewing: bool = False) -> str:
    """The turn at a glance, public: centres, units, DP allotments, who is due
    (``reviewing``: the GM reviews the phase's results; never what they are)."""
    out = [f"**{name}**: {st.phase}"]
    if st.result:
        out.append(f"Game over: {st.result}")
        return "\n".join(out)
    if schedule is not None:
        out.append(schedule.deadline_text())
    if reviewing:
        out.append("The GM is reviewing this phase's results; they are posted once published.")
    out.append("```")
    for p in st.powers:
        out.append(f"{p.power:12} {st.power_summary(p)}")
    out.append("```")
    for title, rows in (("Heirs", st.heirs), ("Thralls", st.thralls), ("Vassals", st.vassals),
                        ("Dropped (eliminated at the next Census)", st.dropped),
                        ("In exile", st.exiles), ("Favor", st.favor)):
        if rows:
            out.append(f"{title}: " + "; ".join(rows))
    for need in st.retreats:
        where = ", ".join(need.options) if need.options else "nowhere: it must disband"
        out.append(f"Retreat: {need.power}'s {need.unit} may retreat to {where}")
    if st.expected:
        out.append("Orders in: " + (", ".join(st.submitted) or "none yet"))
        out.append("Missing: " + (", ".join(st.missing) or "nobody"))
    if ready:
        out.append("Ready: " + ", ".join(ready))
    return "\n".join(out)


def publish_time(preview: Preview) -> str:
    """When the scheduler publishes a preview by itself: in UTC, and as Discord's
    timestamp (which each reader sees in their own time)."""
    at = preview.publish_by
    if at is None:
        return "no set time (only you publish it)"
    stamp = int(at.replace(tzinfo=UTC).timestamp())
    return f"{at:%Y-%m-%d %H:%M} UTC (<t:{stamp}:R>)"
