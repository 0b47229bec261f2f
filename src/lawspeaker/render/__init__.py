"""Maps: the board, the orders and the results of any variant, as SVG and PNG.

Drawn from the variant data alone (every province's ``xy`` in ``map.yaml``),
so a new or corrected variant draws with no extra work::

    import lawspeaker
    from lawspeaker.render import draw

    variant = lawspeaker.load_variant("standard")
    position = lawspeaker.initial_position(variant)
    step = lawspeaker.adjudicate(variant, position, orders)
    draw(variant, position, results=step.results).save("spring.png")   # the orders and results
    draw(variant, step.position).save("after.svg")                      # the position that results
    draw(variant).save("territories.png")                               # the bare territory map
    draw(variant, view="adjacency").save("adjacency.png")               # the §4.4 node diagram
    draw_favor(dissolution, position, results=winter.results).save("favor.png")  # Dissolution §11

One module per concern: :mod:`.palette` (colours, sizes), :mod:`.geometry`
(layout, labels, arrows), :mod:`.territories` (each province's area, from
its point and the adjacency), :mod:`.territory_store` (shipped, cached or
computed areas), :mod:`.territory_layer` (the areas drawn),
:mod:`.adjacency_check` (the truth test ``map check`` runs),
:mod:`.territory_export` (GeoJSON), :mod:`.board` (the board layer),
:mod:`.orders` (orders and results), :mod:`.legend`, :mod:`.png` (SVG to
PNG) and :mod:`.drawing` (``draw`` and ``Drawing``). See docs/maps.md.
"""

from .drawing import Drawing, draw, layout_for
from .favor import draw_favor
from .orders import order_ids
from .palette import STYLE, Style
from .png import svg_to_png

__all__ = ["STYLE", "Drawing", "Style", "draw", "draw_favor", "layout_for", "order_ids",
           "svg_to_png"]
