"""A saved game keeps its history: undo works after a reload."""

from __future__ import annotations

import lawspeaker


def test_undo_after_a_reload_restores_the_orders_and_the_secret_allocations() -> None:
    game = lawspeaker.Game("s9-complete")
    game.order("Aesir", "F Asg - Ida", "Heir Asgard Marry Permyak")
    game.allocate("Aesir", "2 DP to F Permyak Marry Heir Aesir")
    game.process()
    game.order("Aesir", "F Ida H")
    again = lawspeaker.Game.from_json(game.to_json())
    assert again.position == game.position
    assert [str(o) for o in again.orders()] == ["F ida H"]
    assert again.undo() == game.history[0][0]
    assert sorted(str(o) for o in again.orders()) == ["F asg - ida", "Heir asg Marry per"]
    assert [str(a) for a in again.allocations()] == ["2 DP to F per Marry Heir asg"]
    redone = again.process()
    assert redone.position == game.position  # the same orders, the same result


def test_undo_does_not_turn_neutral_units_chosen_orders_into_orders() -> None:
    game = lawspeaker.Game("s9-complete")
    game.process()
    game.undo()
    assert game.orders() == []
