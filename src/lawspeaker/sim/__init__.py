"""Random play: legal random orders and whole random games.

Used by the fuzz tests, the benchmarks and the sample maps of ``render``;
nothing in the engine or the service depends on it.
"""
