"""What the pages say is true (issue 17): results in the names players know,
orders only for one's own units, pasted forum posts read whole, DP on an
illegal order said to be ignored, and each phase saying what is due."""

from __future__ import annotations

import pytest

from lawspeaker.service import GM, PUBLIC, GameService, Viewer


def test_results_name_units_as_the_post_does_never_by_key(service: GameService) -> None:
    """'A ida H' and 'F Noa' were internal keys and short names in a post that
    otherwise writes 'Heir Svartalfheim Marry Idavollr'."""
    service.create_game("s9-complete", "saga", actor=GM)
    service.submit("saga", "Dokkalfar", "Heir Svartalfheim Marry Idavollr", actor=GM)
    service.submit("saga", "Vanir", "A Vanaheimr - Noatun\nF Noatun H", actor=GM)
    record = service.process("saga", actor=GM)
    from lawspeaker.service.export import format_record

    text = format_record(record)
    assert "ordered 'A Idavollr H', not to marry this heir (S9 §10.3 C)" in text
    assert "A Vanaheimr - Noatun: Bounced: cannot dislodge own F Noatun" in text
    assert "'A ida H'" not in text and "F Noa\n" not in text
    svg = str(service.picture("saga", "S1M", orders=True, actor=PUBLIC))
    assert "'A Idavollr H'" in svg and "'A ida H'" not in svg


def test_an_order_for_another_powers_unit_is_refused_and_stands_for_nothing(
        service: GameService) -> None:
    service.create_game("standard", "std", actor=GM)
    report = service.submit("std", "England", "F London - North Sea\nA Paris - Burgundy", actor=GM)
    assert [line.status for line in report.lines] == ["accepted", "unreadable"]
    assert report.lines[1].message == ("A Paris is France's unit: a post for England orders "
                                       "only England's units")
    assert report.orders == ("F London - North Sea",)
    record = service.process("std", actor=GM)
    assert all(line.order != "A Paris - Burgundy"
               for _, lines in record.orders for line in lines)
    assert "A Paris - Burgundy" not in service.export("std", "S1901M", actor=GM, gm=True)


def test_an_order_for_a_neutral_unit_says_to_allocate_dp(service: GameService) -> None:
    service.create_game("dissolution", "dis", actor=GM)
    line = service.check("dis", "Egypt", "A Albania H", actor=GM).lines[0]
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
    service.create_game(variant, "g", actor=GM)
    checked = service.check("g", power, text, actor=Viewer.of(power))
    line = checked.lines[0]
    assert line.status == "ignored" and not checked.ok
    assert line.message.startswith("the order is illegal (") and rule in line.message
    assert "still count against your allotment" in line.message
    report = service.submit("g", power, text, actor=Viewer.of(power))
    assert len(report.allocations) == 1 and "(ignored: the order is illegal" in \
        report.allocations[0]
    assert report.limits is not None and report.limits.spent == 1
    service.process("g", actor=GM)
    mine = service.export("g", None, actor=Viewer.of(power), mine=True)
    assert f"{power}'s DP allocations (secret: only you and the GM see this)" in mine
    assert "-> Ignored: the order is illegal (" in mine and rule in mine
    assert "DP per neutral unit" not in mine  # the tallies hold others' votes
    gm = service.export("g", None, actor=GM, gm=True)
    assert "-> Ignored: the order is illegal (" in gm
    other = next(p for p in sorted(service.variant_of("g", actor=PUBLIC).powers) if p != power)
    for viewer in (Viewer.of(other), Viewer()):
        seen = service.export("g", None, actor=viewer, mine=True)
        assert "DP allocations" not in seen and "Ignored" not in seen
    assert "Ignored" not in service.export("g", None, actor=Viewer.of(power))  # the forum copy


def _winter(service: GameService) -> None:
    service.create_game("dissolution", "dis", actor=GM)
    service.process("dis", actor=GM)
    service.process("dis", actor=GM)
    assert service.game("dis", actor=PUBLIC).phase == "Winter 1992 Adjustment"


def test_a_dissolution_winter_says_embassy_orders_are_due(service: GameService) -> None:
    """Dissolution §11.5: every player orders its Embassies in the Winter, even
    with no builds owed; the status waits for them and the template lists them."""
    _winter(service)
    status = service.status("dis", actor=PUBLIC)
    assert "Egypt" in status.expected and len(status.expected) == 10
    assert status.embassy_orders[0].startswith("Embassy orders from every player "
                                               "(Dissolution §11.5)")
    template = service.template("dis", "Egypt", actor=GM)
    assert "# no builds or removals owed" in template
    assert "E B1p H                           # India: may move to B0z, B1q, B2o, or support" \
        in template
    assert "at most 3 may move this Winter (Dissolution §11.5.4)" in template
    report = service.submit("dis", "Egypt", template, actor=GM)  # the template is a valid post
    assert report.ok, report.lines
    duties, example = service.due("dis", "Egypt", actor=GM)
    assert duties == ["An order for each of your 5 Embassies (Dissolution §11.5): hold, move "
                      "within its slice or support; at most 3 may move (Dissolution "
                      "§11.5.4); an Embassy without an order holds"]
    assert example == "E B1p - B2o"
    assert service.check("dis", "Egypt", example, actor=GM).ok
    line = service.check("dis", "Iran", example, actor=GM).lines[0]  # another player's Embassy
    assert (line.status, line.message) == ("unreadable", "the Embassy on B1p is Egypt's: a "
                                           "post for Iran orders only Iran's Embassies")


def test_each_phase_says_what_is_due_with_a_matching_example(service: GameService) -> None:
    service.create_game("s9-complete", "saga", actor=GM)
    duties, example = service.due("saga", "Aesir", actor=GM)
    assert duties[0].startswith("An order for each of your 2 unit(s): F Asgard, F Himinbjorg")
    assert duties[1] == "Your heir in Asgard: Hold or Marry (S9 §7.1)"
    assert duties[2].startswith("2 DP to allocate to neutral units' orders if you wish "
                                "(S9 §9.2)")
    assert example.startswith("F Asgard - ") and service.check("saga", "Aesir", example,
                                                                actor=GM).ok
    service.create_game("standard", "std", actor=GM)
    service.submit("std", "England", "F London - English Channel", actor=GM)
    service.process("std", actor=GM)  # Fall: the fleet goes to Belgium, a build is owed
    service.submit("std", "England", "F English Channel - Belgium", actor=GM)
    service.process("std", actor=GM)
    assert service.game("std", actor=PUBLIC).phase == "Winter 1901 Adjustment"
    duties, example = service.due("std", "England", actor=GM)
    assert duties == ["1 build(s), or waive them; vacant sites: London"]
    assert example == "Build A London" and service.check("std", "England", example, actor=GM).ok
    assert service.due("std", "France", actor=GM) == (["Nothing to order this phase"],
                                                 "Build A Paris")


def test_the_winter_page_shows_the_embassies_due(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from fastapi.testclient import TestClient

    from lawspeaker.store import open_store
    from lawspeaker.web import create_app

    app = create_app(open_store(f"sqlite:///{tmp_path / 'w.db'}"), tick=0, poll=0.05)
    service: GameService = app.state.service  # type: ignore[attr-defined]
    _winter(service)
    client = TestClient(app, base_url="http://testserver")
    client.get(f"/join/{service.issue_link('dis', 'Egypt', actor=GM)}", follow_redirects=False)
    page = client.get("/games/dis").text
    assert "Winter 1992 Adjustment: what you order" in page
    assert "An order for each of your 5 Embassies (Dissolution §11.5)" in page
    assert "<code>E B1p - B2o</code>" in page
    assert "E B1p H" in page and "Nothing to order" not in page
    assert "no builds owed" not in page


def test_a_convoy_with_no_chain_at_all_is_answered_not_a_crash(service: GameService) -> None:
    """Found by the render property test: Dissolution §3.10.1's advice on stating
    a convoy path raised a TypeError when no chain of carriers existed."""
    service.create_game("dissolution", "dis", actor=GM)
    line = service.check("dis", "Egypt", "A Cairo - Addis Ababa", actor=GM).lines[0]
    assert line.status == "illegal"
    assert line.message == ("Addis Ababa is not adjacent to Cairo, and no chain of fleets or "
                            "wings on the board could convoy an army there (Dissolution §3.10)")


@pytest.mark.parametrize("variant", ["standard", "s9-basic", "s9-complete", "ood",
                                     "dissolution"])
def test_every_example_is_an_order_of_the_phase(variant: str) -> None:
    """The order box's example is always an order this phase takes, in this map's
    names, for every power in every phase of a random game."""
    import random

    import lawspeaker
    from lawspeaker.core.board import PhaseKind
    from lawspeaker.engine.phases import adjudicate, initial_position
    from lawspeaker.engine.posts import read_post
    from lawspeaker.service.templates import example_order
    from lawspeaker.sim.randomplay import random_orders

    var = lawspeaker.load_variant(variant)
    rng = random.Random(5)
    position = initial_position(var)
    kinds = set()
    for _ in range(12):
        if position.result:
            break
        kinds.add(position.phase.kind)
        for power in sorted(var.powers):
            example = example_order(var, position, power)
            lines = read_post(var, example, position.phase.kind, power)
            assert len(lines) == 1 and lines[0].error is None, (position.phase, power, example)
        position = adjudicate(var, position, random_orders(var, position, rng)).position
    assert PhaseKind.ADJUSTMENT in kinds
