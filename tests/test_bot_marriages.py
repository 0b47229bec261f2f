"""Vassal marriages between tacticians (issue 22, S9 Complete §10.4): two
tacticians seated apart reach the same proposal from the public position and
marry; a partner that does not answer costs the tactician nothing."""

from __future__ import annotations

import random

import lawspeaker
from lawspeaker.core.board import Phase, PhaseKind, Position
from lawspeaker.core.orders import HeirMarry, Order
from lawspeaker.engine.phases import adjudicate, initial_position
from lawspeaker.rules.dp import Allocation
from lawspeaker.sim.bots import bot_named
from lawspeaker.sim.bots.matchmaking import thrall_possible, vassal_proposals


def no_minors_left(s9: lawspeaker.Variant) -> Position:
    """Autumn of year 1, every minor's unit gone (so no heir can marry a minor,
    §10.3 A), and Aesir owning Bifrost, a centre that is no one's home: the one
    marriage location there is (§10.4)."""
    start = initial_position(s9)
    units = {p: u for p, u in start.units.items() if start.kind_of(u.power) != "minor"}
    owners = {**start.owners, "bif": "Aesir"}
    powers = {n: s for n, s in start.powers_in_play.items() if n in owners.values()}
    return start.replace(phase=Phase("Autumn", 1, PhaseKind.MOVEMENT), units=units,
                         owners=owners, powers_in_play=powers)


def seat_apart(s9: lawspeaker.Variant, position: Position, seats: dict[str, str]
               ) -> tuple[list[Order], list[Allocation]]:
    """Each power asks its own bot, with its own random stream, as the service's
    seats do; powers not named hold."""
    orders: list[Order] = []
    allocations: list[Allocation] = []
    for i, power in enumerate(sorted(s9.powers)):
        bot = bot_named(seats.get(power, "hold"))
        moves = bot.play(s9, position, [power], random.Random(100 + i))
        orders += moves.orders
        allocations += moves.allocations
    return orders, allocations


def test_two_tacticians_seated_apart_marry_their_heirs(s9: lawspeaker.Variant) -> None:
    autumn = no_minors_left(s9)
    proposals = vassal_proposals(s9, autumn)
    assert len(proposals) == 2 and "Aesir" in proposals, proposals
    partner = next(p for p in proposals if p != "Aesir")
    orders, allocations = seat_apart(s9, autumn, {"Aesir": "tactician",
                                                  partner: "tactician"})
    heirs = {o.power: o for o in orders if isinstance(o, HeirMarry)}
    assert heirs == proposals
    assert heirs["Aesir"].at == heirs[partner].at == "bif"
    after = adjudicate(s9, autumn, orders, None, allocations).position
    vassals = {n: s for n, s in after.powers_in_play.items() if s.kind == "vassal"}
    assert len(vassals) == 1, after.powers_in_play
    (name, state), = vassals.items()
    assert set(state.controllers) == {"Aesir", partner}
    assert after.owners["bif"] == name  # the dowry is the vassal's capital (§10.4)
    assert after.unmarried_heir("Aesir") is None and after.unmarried_heir(partner) is None


def test_a_partner_who_does_not_answer_costs_nothing(s9: lawspeaker.Variant) -> None:
    """The proposal, unanswered, fails (§10.4) and the heir stays unmarried in its
    capital, where it would have held anyway: no minor was left to marry."""
    autumn = no_minors_left(s9)
    partner = next(p for p in vassal_proposals(s9, autumn) if p != "Aesir")
    assert not thrall_possible(s9, autumn, "Aesir")
    orders, allocations = seat_apart(s9, autumn, {"Aesir": "tactician", partner: "hold"})
    assert any(isinstance(o, HeirMarry) and o.power == "Aesir" and o.to_heir for o in orders)
    after = adjudicate(s9, autumn, orders, None, allocations).position
    assert not any(s.kind == "vassal" for s in after.powers_in_play.values())
    heir = after.unmarried_heir("Aesir")
    assert heir is not None and heir.location == s9.powers["Aesir"].capital


def test_while_a_minor_can_be_married_the_tactician_courts_it(s9: lawspeaker.Variant
                                                                ) -> None:
    """With minors left, a thrall marriage is open to every heir (§10.3), so the
    convention pairs no one and the tactician proposes to a minor as before."""
    start = initial_position(s9)
    autumn = start.replace(phase=Phase("Autumn", 1, PhaseKind.MOVEMENT),
                           owners={**start.owners, "bif": "Aesir"})
    assert vassal_proposals(s9, autumn) == {}
    moves = bot_named("tactician").play(s9, autumn, ["Aesir"], random.Random(1))
    heir = [o for o in moves.orders if isinstance(o, HeirMarry)]
    assert heir and not heir[0].to_heir


def test_tacticians_marry_in_whole_games(s9: lawspeaker.Variant) -> None:
    """All nine seats tacticians: once the minors are married off or taken, heirs
    pair up by the convention and vassals appear."""
    bot = bot_named("tactician")
    rng = random.Random(0)
    position = initial_position(s9)
    vassals: set[tuple[str, ...]] = set()
    while position.result is None and position.phase.year <= 8:
        moves = bot.play(s9, position, sorted(s9.powers), rng)
        position = adjudicate(s9, position, moves.orders, None, moves.allocations).position
        vassals |= {tuple(sorted(s.controllers)) for s in position.powers_in_play.values()
                    if s.kind == "vassal"}
    assert vassals, "no vassal marriage in eight years"
