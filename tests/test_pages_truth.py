"""What the pages say is true (issue 17): results in the names players know,
orders only for one's own units, pasted forum posts read whole, DP on an
illegal order said to be ignored, and each phase saying what is due."""

from __future__ import annotations

import pytest

from lawspeaker.service import GM, GameService, Viewer


def test_results_name_units_as_the_post_does_never_by_key(service: GameService) -> None:
    """'A ida H' and 'F Noa' were internal keys and short names in a post that
    otherwise writes 'Heir Svartalfheim Marry Idavollr'."""
    service.create_game("s9-complete", "saga")
    service.submit("saga", "Dokkalfar", "Heir Svartalfheim Marry Idavollr")
    service.submit("saga", "Vanir", "A Vanaheimr - Noatun\nF Noatun H")
    record = service.process("saga")
    from lawspeaker.export import format_record

    text = format_record(record)
    assert "ordered 'A Idavollr H', not to marry this heir (S9 §10.3 C)" in text
    assert "A Vanaheimr - Noatun: Bounced: cannot dislodge own F Noatun" in text
    assert "'A ida H'" not in text and "F Noa\n" not in text
    svg = str(service.picture("saga", "S1M", orders=True))
    assert "'A Idavollr H'" in svg and "'A ida H'" not in svg


def test_an_order_for_another_powers_unit_is_refused_and_stands_for_nothing(
        service: GameService) -> None:
    service.create_game("standard", "std")
    report = service.submit("std", "England", "F London - North Sea\nA Paris - Burgundy")
    assert [line.status for line in report.lines] == ["accepted", "unreadable"]
    assert report.lines[1].message == ("A Paris is France's unit: a post for England orders "
                                       "only England's units")
    assert report.orders == ("F London - North Sea",)
    record = service.process("std")
    assert all(line.order != "A Paris - Burgundy"
               for _, lines in record.orders for line in lines)
    assert "A Paris - Burgundy" not in service.export("std", "S1901M", actor=GM, gm=True)


def test_an_order_for_a_neutral_unit_says_to_allocate_dp(service: GameService) -> None:
    service.create_game("dissolution", "dis")
    line = service.check("dis", "Egypt", "A Albania H", GM).lines[0]
    assert line.status == "unreadable"
    assert line.message == ("A Albania is Albania's, a neutral unit: its orders are set by "
                            "DP (Dissolution §5.1), e.g. '1 DP to A Albania H'")


ILLEGAL_DP = {  # a neutral unit, and an order it cannot be given
    "dissolution": ("Egypt", "1 DP to A Albania - Cairo", "(Dissolution §5.1.2 item 4a)"),
    "s9-complete": ("Aesir", "1 DP to F Permyak - Asgard", "(S9 §9.0)"),
    "ood": ("Ottomans", "1 DP to A Tunis - Amasya", "(OOD §9.0)"),
}


@pytest.mark.parametrize("variant", sorted(ILLEGAL_DP))
def test_dp_on_an_illegal_order_are_said_to_be_ignored_before_and_after(
        service: GameService, variant: str) -> None:
    """Dissolution §5.1.2 item 4a: DP allocated to illegal orders are ignored; S9
    §9.0 and OOD §9.0: the order with the most DP is given to the unit. Check and
    submit say so at once (kept, not rejected); the results tell the GM and the
    allocating power, and nobody else."""
    power, text, rule = ILLEGAL_DP[variant]
    service.create_game(variant, "g")
    checked = service.check("g", power, text, Viewer.of(power))
    line = checked.lines[0]
    assert line.status == "ignored" and not checked.ok
    assert line.message.startswith("the order is illegal (") and rule in line.message
    assert "still count against your allotment" in line.message
    report = service.submit("g", power, text, Viewer.of(power))
    assert len(report.allocations) == 1 and "(ignored: the order is illegal" in \
        report.allocations[0]
    assert report.limits is not None and report.limits.spent == 1
    service.process("g")
    mine = service.export("g", None, actor=Viewer.of(power), mine=True)
    assert f"{power}'s DP allocations (secret: only you and the GM see this)" in mine
    assert "-> Ignored: the order is illegal (" in mine and rule in mine
    assert "DP per neutral unit" not in mine  # the tallies hold others' votes
    gm = service.export("g", None, actor=GM, gm=True)
    assert "-> Ignored: the order is illegal (" in gm
    other = next(p for p in sorted(service.variant_of("g").powers) if p != power)
    for viewer in (Viewer.of(other), Viewer()):
        seen = service.export("g", None, actor=viewer, mine=True)
        assert "DP allocations" not in seen and "Ignored" not in seen
    assert "Ignored" not in service.export("g", None, actor=Viewer.of(power))  # the forum copy
