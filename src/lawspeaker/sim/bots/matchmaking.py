"""Vassal marriages between bots that cannot talk: one proposal both work out alike.

A vassal marriage needs both heirs' matching orders, naming the same
marriage location, in the orders phase before the Census (S9 §10.4 3). Bots
send their orders without talking, so the tactician follows a convention
that any two of its seats reach on their own: :func:`vassal_proposals` is a
function of the public position alone (owners, units, heirs, the map; never
the DP, never the bot's random stream), so every tactician computes the same
pairing and the same location for everyone, and each plays its own half.

The convention, and why it is safe against partners who do not follow it:

* Only heirs that have nothing better to do are paired: no minor power is
  left with a unit to marry (§10.3 A), so the heir would otherwise hold. An
  unmatched proposal simply fails and the heir stays in its capital (§10.4:
  "If one or more of the above requirements are not met, the marriage
  fails"); the attempt is public (§10.4.1 1 c) but costs nothing, DP
  included (§10.4.1 1 b). So a tactician loses nothing to a random partner
  who does not answer.
* It is good for both: the vassal's centres count for both controllers
  (S9 §3.2, §10.5), so the receiver gains the dowry centre at once and the
  giver keeps its count, and the vassal builds in its new capital the next
  Winter (§10.4), a unit the pair orders with DP (§10.5.1).
* The pair and the place: every legal pair (§10.4 1, 2: a centre of one of
  them, not a home centre of either, holding no unit but the giver's), at
  the location least threatened, counting the enemy units that could move
  into it or into either capital (a capture there makes the marriage fail,
  §10.4 4, 5); ties go to the location whose giver has more centres, then to
  the location's and the powers' names. Pairs are taken best first, each
  power at most once.
"""

from __future__ import annotations

from ...core.board import Position
from ...core.orders import HeirMarry
from ...rules.marriages import heir_order_problem, vassal_marriage_phase
from ...variants import Variant

__all__ = ["thrall_possible", "vassal_proposals"]


def thrall_possible(variant: Variant, position: Position, power: str) -> bool:
    """Whether ``power``'s unmarried heir could propose to a minor power now:
    some minor still has a unit in its centre (S9 §10.3 A)."""
    heir = position.unmarried_heir(power)
    if heir is None:
        return False
    return any(heir_order_problem(variant, position,
                                  HeirMarry(power, None, heir.location, prov)) is None
               for prov, owner in sorted(position.owners.items())
               if position.kind_of(owner) == "minor" and prov in position.units)


def _threat(variant: Variant, position: Position, province: str, pair: set[str]) -> int:
    """Units of powers outside ``pair`` that could move into ``province``; stationary
    units only sortie and capture nothing (S9 §7.2)."""
    game_map = variant.map
    return sum(1 for _, u in sorted(position.units.items())
               if u.power not in pair and not u.stationary and u.province != province
               and province in game_map.reachable(u.type, u.location))


def vassal_proposals(variant: Variant, position: Position) -> dict[str, HeirMarry]:
    """Power -> its heir's order under the convention (see the module), for every
    power it pairs in this phase; empty outside the phase before the Census."""
    if not variant.uses("heirs") or not vassal_marriage_phase(variant, position):
        return {}
    free = [p for p in sorted(variant.powers)
            if p not in position.dropped and position.unmarried_heir(p) is not None
            and not thrall_possible(variant, position, p)]
    offers: list[tuple[tuple[int, int, str], str, str, HeirMarry, HeirMarry]] = []
    for i, power in enumerate(free):
        mine = position.unmarried_heir(power)
        assert mine is not None
        for partner in free[i + 1:]:
            theirs = position.unmarried_heir(partner)
            assert theirs is not None
            pair = {power, partner}
            capitals = sum(_threat(variant, position, cap, pair) for cap in sorted(
                {variant.powers[p].capital or "" for p in pair} - {""}))
            for at in sorted(set(position.centres_of(power) + position.centres_of(partner))):
                ask = HeirMarry(power, None, mine.location, theirs.location, True, at)
                answer = HeirMarry(partner, None, theirs.location, mine.location, True, at)
                if heir_order_problem(variant, position, ask) is not None or \
                        heir_order_problem(variant, position, answer) is not None:
                    continue
                giver = position.owners[at]
                key = (_threat(variant, position, at, pair) + capitals,
                       -len(position.centres_of(giver)), at)
                offers.append((key, power, partner, ask, answer))
    offers.sort(key=lambda t: (t[0], t[1], t[2]))
    out: dict[str, HeirMarry] = {}
    for _, power, partner, ask, answer in offers:
        if power not in out and partner not in out:
            out[power], out[partner] = ask, answer
    return out
