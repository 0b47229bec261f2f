"""The game service, as a GM and players use it: create a game, take posts,
process, roll back, publish; and secrecy on every path."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from lawspeaker import Position
from lawspeaker.service import GM, PUBLIC, Forbidden, GameService, NotFound, ServiceError, Viewer
from lawspeaker.store.models import SubmissionRow

ENGLAND = """England:
F Lon - Nth
F Edi - Nrg
A Lvp - Yor
"""


def test_a_new_game_starts_at_the_variants_first_phase(service: GameService) -> None:
    info = service.create_game("standard", "Friday game", {"victory_centres": "17"},
                               {"England": "alice"}, actor=GM)
    assert info.phase == "Spring 1901 Movement"
    assert info.phase_code == "S1901M"
    assert info.rules == {"victory_centres": "17"}
    assert info.players == {"England": "alice"}
    assert [g.name for g in service.list_games()] == ["Friday game"]
    assert service.status("Friday game", actor=PUBLIC).victory_target == 17


@pytest.mark.parametrize(("args", "message"), [
    (("standard", "g", {"victory_centres": "lots"}), "victory_centres: .lots. is not allowed"),
    (("standard", "g", {"no_such_rule": "1"}), "unknown rules option"),
    (("nonesuch", "g", None), "no such variant"),
    (("standard", "  ", None), "1 to 100 characters"),
])
def test_bad_new_games_are_refused_with_the_reason(service: GameService, args: tuple,
                                                   message: str) -> None:
    with pytest.raises(ServiceError, match=message):
        service.create_game(*args, actor=GM)
    assert service.list_games() == []


def test_a_second_game_of_the_same_name_is_refused(service: GameService) -> None:
    service.create_game("standard", "g", actor=GM)
    with pytest.raises(ServiceError, match="already a game named 'g'"):
        service.create_game("ood", "g", actor=GM)


def test_an_unknown_game_suggests_the_nearest_name(service: GameService) -> None:
    service.create_game("standard", "Friday game", actor=GM)
    with pytest.raises(NotFound, match="did you mean 'Friday game'"):
        service.status("Friday gmae", actor=PUBLIC)


def test_each_line_is_reported_and_illegal_orders_are_kept(service: GameService) -> None:
    service.create_game("standard", "g", actor=GM)
    report = service.submit("g", "England", "F Lon - Nth\nF Edi - Mun\nA Lvp - Xyz\n", actor=GM)
    assert [line.status for line in report.lines] == ["accepted", "illegal", "unreadable"]
    assert "Munich" in report.lines[1].message
    assert "Xyz" in report.lines[2].message
    assert report.orders == ("F London - North Sea",
                             "F Edinburgh - Munich  (illegal: a fleet in Edinburgh cannot "
                             "reach Munich)")
    assert not report.ok


def test_a_resubmission_replaces_the_orders_for_the_same_units(service: GameService,
                                                               store) -> None:
    service.create_game("standard", "g", actor=GM)
    service.submit("g", "England", ENGLAND, actor=GM)
    report = service.submit("g", "England", "A Lvp - Wal", actor=GM)
    assert sorted(report.orders) == ["A Liverpool - Wales", "F Edinburgh - Norwegian Sea",
                                     "F London - North Sea"]
    with store.transaction() as s:  # every version stays on record
        posts = s.scalars(select(SubmissionRow.text).order_by(SubmissionRow.id)).all()
    assert posts == [ENGLAND, "A Lvp - Wal"]


def test_two_orders_for_one_unit_in_one_post_follow_the_rules_option(
        service: GameService) -> None:
    service.create_game("standard", "g", actor=GM)
    report = service.submit("g", "France", "A Par - Bur\nA Par - Pic\n", actor=GM)
    assert [line.status for line in report.lines] == ["twice", "twice"]
    service.process("g", actor=GM)
    record = service.record("g", actor=PUBLIC)
    (france,) = [lines for power, lines in record.orders if power == "France"][:1]
    moves = [line for line in france if line.order.startswith("A Paris -")]
    assert [line.outcome for line in moves] == ["illegal", "illegal"]
    assert all("conflicting orders" in line.reason for line in moves)
    assert service.position("g", actor=PUBLIC).units["par"].power == "France"  # DATC 4.D.3: it held


def test_orders_for_another_power_are_refused_to_a_player(service: GameService) -> None:
    service.create_game("standard", "g", actor=GM)
    with pytest.raises(Forbidden):
        service.submit("g", "England", ENGLAND, actor=Viewer.of("France"))
    report = service.submit("g", "France", "England: F Lon - Nth\nA Par - Bur",
                            actor=Viewer.of("France"))
    assert report.lines[0].status == "unreadable"
    assert "for England" in report.lines[0].message
    assert report.orders == ("A Paris - Burgundy",)


def test_processing_adjudicates_the_standing_orders_and_advances(service: GameService
                                                                 ) -> None:
    service.create_game("standard", "g", actor=GM)
    service.submit("g", "England", ENGLAND, actor=GM)
    service.submit("g", "France", "A Par - Bur\nA Mar - Bur", actor=GM)
    assert service.status("g", actor=PUBLIC).submitted == ("England", "France")
    record = service.process("g", actor=GM)
    assert record.phase == "Spring 1901 Movement"
    france = dict(record.orders)["France"]
    assert {line.reason for line in france if "Burgundy" in line.order} == {"Bounced 1v1"}
    position = service.position("g", actor=PUBLIC)
    assert position.units["nth"].power == "England"
    status = service.status("g", actor=PUBLIC)
    assert status.phase == "Fall 1901 Movement"
    assert status.submitted == ()


def test_undo_brings_the_orders_back_and_the_same_result_again(service: GameService) -> None:
    service.create_game("standard", "g", actor=GM)
    service.submit("g", "England", ENGLAND, actor=GM)
    service.process("g", actor=GM)
    first = service.export("g", actor=PUBLIC)
    assert service.undo("g", actor=GM) == "Spring 1901 Movement"
    assert service.status("g", actor=PUBLIC).submitted == ("England",)
    assert service.submissions("g", "England", actor=GM).orders  # the orders stand again
    service.process("g", actor=GM)
    assert service.export("g", actor=PUBLIC) == first
    history = service.history("g", actor=PUBLIC)
    assert [e.kind for e in history].count("processed") == 2
    assert any(e.undone for e in history if e.kind == "processed")


def test_undo_to_a_named_earlier_phase(service: GameService) -> None:
    service.create_game("standard", "g", actor=GM)
    service.process("g", actor=GM)
    service.process("g", actor=GM)
    assert service.game("g", actor=PUBLIC).phase_code == "S1902M"
    assert service.undo("g", to="S1901M", actor=GM) == "Spring 1901 Movement"
    assert service.game("g", actor=PUBLIC).phase_code == "S1901M"
    service.process("g", actor=GM)
    with pytest.raises(NotFound, match="no phase 'W1950A'"):
        service.undo("g", to="W1950A", actor=GM)


def test_nothing_to_undo_at_the_start(service: GameService) -> None:
    service.create_game("standard", "g", actor=GM)
    with pytest.raises(ServiceError, match="nothing to undo"):
        service.undo("g", actor=GM)


def test_in_adjustments_a_new_post_replaces_the_whole_list(service: GameService) -> None:
    service.create_game("standard", "g", actor=GM)
    service.submit("g", "England", ENGLAND, actor=GM)
    service.process("g", actor=GM)
    service.submit("g", "England", "F Nth C A Yor - Nwy\nA Yor - Nwy", actor=GM)
    service.process("g", actor=GM)
    assert service.status("g", actor=PUBLIC).phase == "Winter 1901 Adjustment"
    service.submit("g", "England", "Build F Lon\nBuild A Edi", actor=GM)
    report = service.submit("g", "England", "Build A Lon", actor=GM)
    assert report.orders == ("Build A London",)


# --- Diplomacy Points and secrecy -----------------------------------------------


def test_dp_resubmitted_for_a_unit_replaces_the_earlier_allocation(service: GameService
                                                                   ) -> None:
    service.create_game("s9-complete", "saga", actor=GM)
    first = service.submit("saga", "Aesir", "2 DP to F Permyak - Ylg", actor=GM)
    assert first.dp_left == 0
    second = service.submit("saga", "Aesir", "2 DP to F Permyak H", actor=GM)
    assert [line.status for line in second.lines] == ["accepted"]
    assert second.allocations == ("2 DP to F Permyak H",)
    assert second.dp_left == 0


def test_an_allocation_over_the_allotment_is_rejected_and_not_counted(service: GameService
                                                                      ) -> None:
    service.create_game("s9-complete", "saga", actor=GM)
    report = service.submit("saga", "Aesir", "1 DP to F Permyak H\n2 DP to F Marzanna H", actor=GM)
    assert report.lines[1].status == "rejected"
    assert "S9 §9.2" in report.lines[1].message
    assert report.allocations == ("1 DP to F Permyak H",)


def test_allocations_are_seen_only_by_their_author_and_the_gm(service: GameService) -> None:
    service.create_game("s9-complete", "saga", actor=GM)
    service.submit("saga", "Aesir", "Heir Asg Marry Per\n2 DP to F Per Marry Heir Aesir",
                   actor=Viewer.of("Aesir"))
    assert service.submissions("saga", "Aesir", actor=Viewer.of("Aesir")).allocations
    with pytest.raises(Forbidden):
        service.submissions("saga", "Aesir", actor=Viewer.of("Vanir"))
    with pytest.raises(Forbidden):
        service.submissions("saga", "Aesir", actor=PUBLIC)
    service.process("saga", actor=GM)
    public = service.export("saga", actor=PUBLIC)
    assert "DP" not in public.replace("(orders chosen by DP)", "")
    assert "F Permyak Marry Heir Asgard" in public  # the chosen order is public (S9 §9.0)
    gm = service.export("saga", gm=True, actor=GM)
    assert "GM only: DP allocations" in gm
    assert "Aesir: 2 DP to F Permyak Marry Heir Asgard -> counted" in gm
    assert gm.startswith(public.rstrip("\n"))  # the secret part comes after, apart
    with pytest.raises(Forbidden):
        service.export("saga", gm=True, actor=Viewer.of("Aesir"))
    for entry in service.history("saga", actor=PUBLIC):
        assert "DP" not in entry.summary and "Per" not in entry.summary


def test_dp_can_be_revealed_only_after_the_game(service: GameService) -> None:
    service.create_game("s9-complete", "saga", {"max_years": "1"}, actor=GM)
    service.submit("saga", "Aesir", "2 DP to F Permyak H", actor=GM)
    with pytest.raises(ServiceError, match="secret until the game has ended"):
        service.reveal_dp("saga", actor=GM)
    while not service.game("saga", actor=PUBLIC).result:
        service.process("saga", actor=GM)
    service.reveal_dp("saga", actor=GM)
    first = service.export("saga", phase="S1M", actor=PUBLIC)
    assert "DP allocations (revealed after the game)" in first
    assert "Aesir: 2 DP to F Permyak H -> counted" in first


def test_a_finished_game_takes_no_orders(service: GameService) -> None:
    service.create_game("s9-complete", "saga", {"max_years": "1"}, actor=GM)
    while not service.game("saga", actor=PUBLIC).result:
        service.process("saga", actor=GM)
    with pytest.raises(ServiceError, match="game is over"):
        service.submit("saga", "Aesir", "F Asg H", actor=GM)
    with pytest.raises(ServiceError, match="game is over"):
        service.process("saga", actor=GM)
    assert "Game over" in service.export("saga", actor=PUBLIC)
    assert "Next:" not in service.export("saga", actor=PUBLIC)


# --- GM actions the rulebooks name ---------------------------------------------


def test_forced_elimination_is_recorded_and_happens_at_the_census(service: GameService
                                                                  ) -> None:
    service.create_game("s9-complete", "saga", actor=GM)
    service.force_elimination("saga", "Ymir", actor=GM)
    assert "Ymir" in service.status("saga", actor=PUBLIC).dropped
    assert any(e.kind == "eliminate" and "Ymir" in e.summary for e in service.history("saga",
                                                                                      actor=PUBLIC))
    while service.status("saga", actor=PUBLIC).kind.value == "movement" and \
            service.game("saga", actor=PUBLIC).phase.startswith(("Spring", "Autumn")):
        service.process("saga", actor=GM)
        if service.game("saga", actor=PUBLIC).phase.startswith("Winter"):
            break
    assert "Ymir" not in set(service.position("saga", actor=PUBLIC).owners.values())


def test_a_house_rule_change_is_recorded(service: GameService) -> None:
    service.create_game("standard", "g", actor=GM)
    service.set_rule("g", "victory_centres", "16", actor=GM)
    assert service.game("g", actor=PUBLIC).rules == {"victory_centres": "16"}
    assert any("victory_centres: (variant default) -> 16" in e.summary
               for e in service.history("g", actor=PUBLIC))
    with pytest.raises(ServiceError, match="unknown rules option"):
        service.set_rule("g", "victory", "16", actor=GM)


def test_only_the_gm_processes_and_rolls_back(service: GameService) -> None:
    service.create_game("standard", "g", actor=GM)
    for action in (lambda: service.process("g", actor=Viewer.of("England")),
                   lambda: service.undo("g", actor=PUBLIC),
                   lambda: service.set_rule("g", "victory_centres", "3",
                                            actor=Viewer.of("England")),
                   lambda: service.create_game("standard", "h", actor=Viewer.of("France"))):
        with pytest.raises(Forbidden):
            action()


def test_every_submission_is_kept_even_when_replaced(service: GameService, store) -> None:
    service.create_game("standard", "g", actor=GM)
    for text in ("A Par - Bur", "A Par - Pic", "A Par H"):
        service.submit("g", "France", text, actor=GM)
    with store.transaction() as s:
        assert s.scalar(select(func.count()).select_from(SubmissionRow)) == 3
    assert service.submissions("g", "France", actor=GM).orders == ("A Paris H",)


def test_a_map_shows_pending_orders_only_to_whom_they_belong(service: GameService) -> None:
    service.create_game("standard", "g", actor=GM)
    service.submit("g", "England", "F Lon - Nth", actor=GM)
    service.submit("g", "France", "A Par - Bur", actor=GM)
    mine = service.picture("g", orders=True, actor=Viewer.of("England"))
    assert 'id="order-lon"' in mine and 'id="order-par"' not in mine
    assert 'id="order-lon"' not in service.picture("g", orders=True, actor=PUBLIC)
    everything = service.picture("g", orders=True, actor=GM)
    assert 'id="order-lon"' in everything and 'id="order-par"' in everything
    service.process("g", actor=GM)
    done = service.picture("g", phase="S1901M", orders=True, actor=PUBLIC)
    assert 'id="order-par"' in done and 'data-outcome="succeeds"' in done  # results: public
    assert service.picture("g", fmt="png", actor=PUBLIC).startswith(b"\x89PNG")


def test_the_gm_may_strip_an_exile_of_its_dp(service: GameService) -> None:
    """Dissolution §5.3: exiles allocate 1 DP each orders phase, no deadline
    waits for them, and the GM may remove one from the game entirely."""
    service.create_game("dissolution", "d", actor=GM)
    with pytest.raises(ServiceError, match="not a Player in Exile"):
        service.remove_exile("d", "Poland", actor=GM)
    with service.store.transaction() as s:  # Poland has been eliminated into exile
        from lawspeaker.store.models import PhaseRow

        row = s.scalars(select(PhaseRow)).one()
        position = Position.from_dict(row.position)
        row.position = position.replace(
            units={p: u for p, u in position.units.items() if u.power != "Poland"},
            owners={c: o for c, o in position.owners.items() if o != "Poland"},
            exiles={"Poland"}).to_dict()
    status = service.status("d", actor=PUBLIC)
    assert "Poland" in status.exiles and "Poland" not in status.expected
    assert service.submit("d", "Poland", "1 DP to A Albania H", actor=GM).dp_left == 0
    service.remove_exile("d", "Poland", actor=GM)
    report = service.submit("d", "Poland", "1 DP to A Albania H", actor=GM)
    assert report.lines[0].status == "rejected"
    assert any("removed from the game" in e.summary for e in service.history("d", actor=PUBLIC))


def test_a_gms_own_embassy_setup_is_checked_and_kept(service: GameService) -> None:
    """Dissolution §11.2: the GM may supply another valid setup."""
    with pytest.raises(ServiceError, match="not a valid setup"):
        service.create_game("dissolution", "bad", {"favor_setup": "EG=N9z"}, actor=GM)
    assert service.list_games() == []
    service.create_game("dissolution", "legacy", {"favor_setup": "legacy"}, actor=GM)
    favor = service.picture("legacy", board="favor", actor=PUBLIC)
    assert "favor-hex-U2j" in favor and "favor-embassy-" in favor
    service.create_game("standard", "plain", actor=GM)
    with pytest.raises(ServiceError, match="has no Favor Map"):
        service.picture("plain", board="favor", actor=PUBLIC)
