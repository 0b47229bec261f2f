"""What the service gained for the game server: secret links, deadlines and
the scheduler, pause and extensions, ready flags, secret draw votes, and order
entry (checking without keeping; each unit's legal orders). SQLite always,
PostgreSQL when LAWSPEAKER_TEST_PG is set."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from lawspeaker.service import GM, PUBLIC, Forbidden, GameService, NotFound, ServiceError, Viewer
from lawspeaker.store.models import LinkRow, now

AESIR = Viewer.of("Aesir")


@pytest.fixture()
def s9(service: GameService) -> GameService:
    service.create_game("s9-complete", "Saga", actor=GM)
    return service


# --- links ---------------------------------------------------------------------------------

def test_a_link_is_stored_only_as_a_hash_and_grants_its_seat(s9: GameService, store) -> None:
    token = s9.issue_link("Saga", "aesir", actor=GM)
    grant = s9.redeem(token)
    assert grant.game == "Saga" and grant.viewer == AESIR
    assert grant.viewer_in("Other") is None
    with store.transaction() as s:
        hashes = s.scalars(select(LinkRow.token_hash)).all()
    assert token not in hashes and len(hashes) == 1 and len(hashes[0]) == 64


def test_a_new_link_for_a_seat_revokes_the_old_one(s9: GameService) -> None:
    old = s9.issue_link("Saga", "Aesir", actor=GM)
    grant = s9.redeem(old)
    new = s9.issue_link("Saga", "Aesir", actor=GM)
    with pytest.raises(NotFound):
        s9.redeem(old)
    assert s9.grant(grant.link_id) is None
    assert s9.redeem(new).viewer == AESIR
    assert s9.revoke_links("Saga", "Aesir", actor=GM) == 1
    with pytest.raises(NotFound):
        s9.redeem(new)


def test_only_the_gm_issues_links_and_the_server_link_is_gm_everywhere(s9: GameService
                                                                       ) -> None:
    with pytest.raises(Forbidden):
        s9.issue_link("Saga", "Vanir", actor=AESIR)
    grant = s9.redeem(s9.issue_link(None, actor=GM))
    assert grant.game is None and grant.viewer_in("Saga") == GM
    with pytest.raises(ServiceError, match="Narnia"):
        s9.issue_link("Saga", "Narnia", actor=GM)


def test_the_history_never_shows_a_token(s9: GameService) -> None:
    token = s9.issue_link("Saga", "Aesir", actor=GM)
    assert all(token not in h.summary for h in s9.history("Saga", actor=PUBLIC))


# --- deadlines and the scheduler -----------------------------------------------------------

def test_the_scheduler_processes_after_deadline_and_grace(s9: GameService) -> None:
    s9.submit("Saga", "Aesir", "F Asgard - Idavollr", actor=AESIR)
    schedule = s9.set_schedule("Saga", 60, grace_minutes=30, timezone="Europe/Berlin", actor=GM)
    assert schedule.deadline.tzname() in ("CET", "CEST")
    start = now()
    assert s9.process_due(start + timedelta(minutes=61)) == []  # in the grace period
    assert s9.process_due(start + timedelta(minutes=91)) == ["Saga"]
    assert s9.game("Saga", actor=PUBLIC).phase_code != "S400M"
    assert s9.history("Saga", actor=PUBLIC)[-1].actor == "scheduler"
    record = s9.record("Saga", actor=PUBLIC)
    assert any("Idavollr" in str(line) for _, lines in record.orders for line in lines)
    # the next phase has a fresh deadline from when it began, so nothing is due twice
    assert s9.process_due(start + timedelta(minutes=61)) == []
    assert s9.schedule("Saga", actor=PUBLIC).deadline - schedule.deadline < timedelta(minutes=5)


def test_a_paused_game_waits_and_resume_gives_the_time_back(s9: GameService) -> None:
    s9.set_schedule("Saga", 60, actor=GM)
    deadline = s9.schedule("Saga", actor=PUBLIC).deadline
    s9.pause("Saga", actor=GM)
    assert s9.schedule("Saga", actor=PUBLIC).paused
    assert s9.process_due(now() + timedelta(days=3)) == []
    with pytest.raises(ServiceError, match="already paused"):
        s9.pause("Saga", actor=GM)
    s9.resume("Saga", actor=GM)
    assert s9.schedule("Saga", actor=PUBLIC).deadline >= deadline


def test_extend_moves_the_deadline(s9: GameService) -> None:
    s9.set_schedule("Saga", 60, actor=GM)
    before = s9.schedule("Saga", actor=PUBLIC).deadline
    after = s9.extend("Saga", 120, actor=GM).deadline
    assert after - before == timedelta(minutes=120)
    with pytest.raises(Forbidden):
        s9.extend("Saga", 10, actor=AESIR)


def test_bad_schedules_are_refused(s9: GameService) -> None:
    with pytest.raises(ServiceError, match="time zone"):
        s9.set_schedule("Saga", 60, timezone="Mars/Olympus", actor=GM)
    with pytest.raises(ServiceError, match="minutes"):
        s9.set_schedule("Saga", 0, actor=GM)
    assert s9.schedule("Saga",
                       actor=PUBLIC).deadline is None  # no deadline: the GM processes by hand
    assert s9.due_games(now() + timedelta(days=999)) == []


def test_all_ready_processes_early(s9: GameService) -> None:
    s9.set_schedule("Saga", 60 * 24, actor=GM)
    expected = s9.status("Saga", actor=PUBLIC).expected
    for power in expected[:-1]:
        s9.set_ready("Saga", power, True, actor=Viewer.of(power))
    assert s9.process_due() == []
    s9.set_ready("Saga", expected[-1], True, actor=Viewer.of(expected[-1]))
    assert s9.process_due() == ["Saga"]
    assert s9.ready("Saga", actor=PUBLIC) == ()  # flags belong to the phase


def test_no_one_marks_another_power_ready(s9: GameService) -> None:
    with pytest.raises(Forbidden):
        s9.set_ready("Saga", "Vanir", True, actor=AESIR)
    assert s9.ready("Saga", actor=PUBLIC) == ()


# --- draw votes ------------------------------------------------------------------------------

def test_draw_votes_are_secret_and_a_unanimous_vote_ends_the_game(s9: GameService) -> None:
    tally = s9.draw_tally("Saga", actor=PUBLIC)
    assert tally.rule == "unanimous" and len(tally.voters) == 9
    for power in tally.voters[:-1]:
        s9.vote_draw("Saga", power, True, actor=Viewer.of(power))
    assert s9.vote_draw("Saga", tally.voters[-1], False,
                        actor=Viewer.of(tally.voters[-1])).cast == 9
    assert s9.game("Saga", actor=PUBLIC).result is None
    assert s9.my_vote("Saga", "Aesir", actor=AESIR) is True
    for who in (GM, PUBLIC, Viewer.of("Vanir")):
        with pytest.raises(Forbidden):
            s9.my_vote("Saga", "Aesir", actor=who)
    s9.vote_draw("Saga", tally.voters[-1], True, actor=Viewer.of(tally.voters[-1]))
    assert s9.game("Saga", actor=PUBLIC).result.startswith("Draw: Aesir, ")
    with pytest.raises(ServiceError, match="over"):
        s9.submit("Saga", "Aesir", "F Asgard H", actor=AESIR)


def test_the_draw_rule_is_a_game_setting(s9: GameService) -> None:
    s9.set_draw_rule("Saga", "majority", actor=GM)
    voters = s9.draw_tally("Saga", actor=PUBLIC).voters
    for power in voters[:4]:
        assert not s9.vote_draw("Saga", power, True, actor=Viewer.of(power)).passed
    assert s9.vote_draw("Saga", voters[4], True, actor=Viewer.of(voters[4])).passed
    s9.create_game("standard", "NoDraws", actor=GM)
    s9.set_draw_rule("NoDraws", "none", actor=GM)
    with pytest.raises(ServiceError, match="draw rule: none"):
        s9.vote_draw("NoDraws", "England", True, actor=Viewer.of("England"))
    with pytest.raises(ServiceError, match="unknown draw rule"):
        s9.set_draw_rule("NoDraws", "coin-toss", actor=GM)
    with pytest.raises(Forbidden):
        s9.vote_draw("NoDraws", "England", True, actor=Viewer.of("France"))


# --- order entry -------------------------------------------------------------------------------

def test_check_answers_like_submit_and_keeps_nothing(s9: GameService) -> None:
    post = "F Asgard - Idavollr\nF Asgard - Nowhere\n9 DP to F Bifrost H\n"
    checked = s9.check("Saga", "Aesir", post, actor=AESIR)
    assert [line.status for line in checked.lines] == ["accepted", "unreadable", "rejected"]
    assert s9.submissions("Saga", "Aesir", actor=GM).orders == ()
    assert s9.status("Saga", actor=PUBLIC).submitted == ()
    sent = s9.submit("Saga", "Aesir", post, actor=AESIR)
    assert [line.status for line in sent.lines] == [line.status for line in checked.lines]
    with pytest.raises(Forbidden):
        s9.check("Saga", "Aesir", post, actor=Viewer.of("Vanir"))


def test_each_units_legal_orders_are_offered(s9: GameService) -> None:
    options = {o.unit: o.orders for o in s9.unit_options("Saga", "Aesir", actor=AESIR)}
    assert set(options) == {"F Asgard", "F Himinbjorg"}
    assert "F Asg H" in options["F Asgard"] and "F Asg - Ida" in options["F Asgard"]
    assert all(s9.check("Saga", "Aesir", o, actor=AESIR).lines[0].status == "accepted"
               for o in options["F Asgard"])
    with pytest.raises(Forbidden):
        s9.unit_options("Saga", "Aesir", actor=PUBLIC)


# --- a power's own posts and its DP limits -------------------------------------------------

def test_a_player_sees_every_version_of_its_own_posts_and_no_one_elses(s9: GameService
                                                                        ) -> None:
    s9.submit("Saga", "Aesir", "F Asgard - Idavollr\n2 DP to F Glaesisvellir H", actor=AESIR)
    s9.submit("Saga", "Aesir", "F Asgard - Himinbjorg\n5 DP to F Permyak H", actor=AESIR)
    s9.submit("Saga", "Jotnar", "F Jotunheim - Aekin", actor=Viewer.of("Jotnar"))
    mine = s9.posts("Saga", "Aesir", actor=AESIR)
    assert [p.number for p in mine] == [1, 2] and {p.power for p in mine} == {"Aesir"}
    assert mine[0].text == "F Asgard - Idavollr\n2 DP to F Glaesisvellir H"  # as written
    assert [line.status for line in mine[1].lines] == ["accepted", "rejected"]
    assert "allotment" in mine[1].lines[1].message
    # The first post's order was replaced; its DP (not replaced: 5 DP were rejected) stands.
    assert mine[0].standing == (2,) and mine[1].standing == (1,)
    assert mine[0].at.tzinfo is not None and mine[0].at <= mine[1].at
    assert [p.power for p in s9.posts("Saga", None, actor=GM)] == ["Aesir", "Aesir", "Jotnar"]
    for who in (Viewer.of("Jotnar"), PUBLIC):
        with pytest.raises(Forbidden):
            s9.posts("Saga", "Aesir", actor=who)
        with pytest.raises(Forbidden):
            s9.posts("Saga", None, actor=who)
    s9.process("Saga", actor=GM)
    assert s9.posts("Saga", "Aesir", actor=AESIR) == []  # a new phase, no posts yet


def test_the_report_shows_the_allotment_spent_and_left(s9: GameService) -> None:
    report = s9.submit("Saga", "Aesir", "1 DP to F Glaesisvellir H", actor=AESIR)
    limits = report.limits
    assert limits is not None and limits.rule == "S9 §9.2" and limits.caps == ()
    assert (limits.allotment, limits.spent, limits.left) == (2, 1, 1) == \
        (limits.allotment, limits.spent, report.dp_left)


def test_dissolution_shows_the_favor_cap_for_each_nuclear_power(service: GameService
                                                                ) -> None:
    service.create_game("dissolution", "D", actor=GM)
    egypt = Viewer.of("Egypt")
    before = service.submissions("D", "Egypt", actor=egypt).limits
    assert before is not None and before.rule == "Dissolution §5.2"
    caps = {c.on: c for c in before.caps}
    assert {"India", "NATO", "US Navy"} <= set(caps)
    assert all(c.spent == 0 and c.left == c.cap for c in caps.values())
    india = caps["India"].cap
    report = service.submit("D", "Egypt", f"{india} DP to W Mumbai H\n1 DP to A Delhi H",
                            actor=egypt)
    assert [line.status for line in report.lines] == ["accepted", "rejected"]
    assert "Favor limit" in report.lines[1].message
    after = {c.on: c for c in report.limits.caps}
    assert (after["India"].spent, after["India"].left) == (india, 0)
    assert after["NATO"] == caps["NATO"]
    assert report.limits.spent == india and report.limits.left == before.allotment - india
