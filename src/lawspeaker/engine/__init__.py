"""A game's phases: the core and the rule components put together.

``phases.adjudicate`` is one pure step of a game (movement, retreats,
adjustments, the Census, the Winter of the Favor Map); ``retreats`` and
``adjustments`` are the two phase kinds besides movement; ``game.Game`` is the
stateful convenience layer of the public API; ``positions`` reads a position
file; ``posts`` reads a pasted post of orders; ``codec`` turns orders, results
and allocations into JSON and back.
"""
