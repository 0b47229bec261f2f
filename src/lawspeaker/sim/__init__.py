"""Random play, bots and the balance lab.

``randomplay`` plays legal random orders; ``sample`` takes a reproducible
mid-game turn from it for the docs' maps, the render tests and the benchmarks
(render draws a turn but does not make one); ``bots`` seats computer players,
which the service uses; ``lab`` plays many games for ``lawspeaker simulate``.
Nothing in the engine depends on this package.
"""
