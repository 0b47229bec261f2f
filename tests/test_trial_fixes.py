"""Defects found by a GM's trial (issue 31)."""

from __future__ import annotations

import pytest

from lawspeaker.service import GM, PUBLIC, GameService, ServiceError


def _units_lines(post: str, place: str) -> list[str]:
    return [line for line in post.splitlines() if f" {place}" in line and ":" in line]


def test_a_unit_with_an_illegal_order_appears_once_in_the_results_post(
        service: GameService) -> None:
    service.create_game("standard", "g", actor=GM)
    service.submit("g", "England", "F Lon - Nth\nF Edi - Mun\n", actor=GM)
    service.process("g", actor=GM)
    post = service.export("g", fmt="text", actor=PUBLIC)
    edinburgh = [line for line in post.splitlines() if "F Edinburgh" in line]
    assert edinburgh == ["  ! F Edinburgh - Munich: Illegal: a fleet in Edinburgh cannot "
                         "reach Munich"]
    assert "    A Liverpool H: No order: holds" in post.splitlines()


def test_an_illegal_order_for_a_dislodged_unit_says_it_was_dislodged_once(
        service: GameService) -> None:
    service.create_game("standard", "g", actor=GM)
    service.submit("g", "France", "A Par - Bur", actor=GM)
    service.submit("g", "Austria", "A Vie - Tyr", actor=GM)
    service.process("g", actor=GM)
    service.submit("g", "France", "A Bur S A Tyr - Mun", actor=GM)
    service.submit("g", "Austria", "A Tyr - Mun", actor=GM)
    service.submit("g", "Germany", "A Mun - Lon", actor=GM)
    service.process("g", actor=GM)
    post = service.export("g", "F1901M", fmt="text", actor=PUBLIC)
    munich = [line for line in post.splitlines() if line.strip(" !*").startswith("A Munich")]
    assert len(munich) == 1, post
    assert munich[0].startswith("  ! A Munich - London: Illegal")
    assert "Dislodged by" in munich[0]


def test_another_powers_illegal_order_leaves_the_units_own_hold(service: GameService) -> None:
    service.create_game("standard", "g", actor=GM)
    service.submit("g", "England", "A Par - Bur", actor=GM)
    service.process("g", actor=GM)
    post = service.export("g", fmt="text", actor=PUBLIC)
    assert "    A Paris H: No order: holds" in post.splitlines()


def test_dp_to_ones_own_unit_in_dissolution_names_minor_and_nuclear_units(
        service: GameService) -> None:
    service.create_game("dissolution", "d", actor=GM)
    report = service.submit("d", "Romania", "1 DP to A Buc H\n", actor=GM)
    (line,) = report.lines
    assert line.status == "rejected"
    assert "minor powers' and the nuclear powers' (Dissolution §5)" in line.message
    assert "S9" not in line.message


def test_dp_to_ones_own_unit_in_s9_still_cites_s9(service: GameService) -> None:
    service.create_game("s9-complete", "s", actor=GM)
    power = sorted(service.status("s", actor=PUBLIC).expected)[0]
    position = service.position("s", actor=PUBLIC)
    unit = next(u for u in position.units.values() if u.power == power)
    report = service.submit("s", power, f"1 DP to {unit.type.value} {unit.province} H\n",
                            actor=GM)
    assert "DP only set orders for minor powers (S9 §9.0)" in report.lines[-1].message


@pytest.mark.parametrize(("variant", "rule"), [("dissolution", "(Dissolution §5.1.3)"),
                                               ("s9-complete", "(S9 §9.0)"),
                                               ("ood", "(OOD §9.0)")])
def test_reveal_dp_cites_the_variants_own_rule(service: GameService, variant: str,
                                               rule: str) -> None:
    service.create_game(variant, "g", actor=GM)
    with pytest.raises(ServiceError) as refused:
        service.act("g", "reveal-dp", {}, actor=GM)
    assert str(refused.value).endswith(rule)
    assert variant == "s9-complete" or "S9" not in str(refused.value)


def test_eliminate_in_dissolution_cites_no_s9_rule(service: GameService) -> None:
    service.create_game("dissolution", "g", actor=GM)
    with pytest.raises(ServiceError) as refused:
        service.act("g", "eliminate", {"power": "Romania"}, actor=GM)
    assert "S9" not in str(refused.value)


def test_undoing_a_game_ended_by_a_draw_vote_undoes_only_the_draw(
        service: GameService) -> None:
    from lawspeaker.service import Viewer

    service.create_game("standard", "g", actor=GM)
    service.submit("g", "France", "A Par - Bur", actor=GM)
    service.process("g", actor=GM)
    powers = service.variant_of("g", actor=PUBLIC).powers
    for power in sorted(powers):
        service.vote_draw("g", power, True, actor=Viewer.of(power))
    assert service.position("g", actor=PUBLIC).result
    assert service.undo("g", actor=GM) == "Fall 1901 Movement"
    position = service.position("g", actor=PUBLIC)
    assert position.result is None
    assert "bur" in position.units  # the Spring adjudication stands
    assert service.game("g", actor=PUBLIC).phase == "Fall 1901 Movement"
    # the vote starts over: one more yes does not end the game again
    service.vote_draw("g", "France", True, actor=Viewer.of("France"))
    assert service.position("g", actor=PUBLIC).result is None
    # with no draw to undo, undo rolls back the last phase as before
    assert service.undo("g", actor=GM) == "Spring 1901 Movement"
