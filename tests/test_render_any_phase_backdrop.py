"""Every phase of random games of every variant draws over an official map
image too (issue 19, "with and without a layout"): the GM has uploaded a
complete layout, and each phase is also drawn over a half-calibrated one
(places not set are estimated). Posts mix in illegal orders, as in
test_render_any_phase.py; nothing may raise."""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

import pytest
from backdrop_fixtures import full_layout, image_size, plain_png
from test_render_any_phase import PHASES, VARIANTS, post_everyone

import lawspeaker
from lawspeaker.render.backdrop import Backdrop
from lawspeaker.render.maplayout import dump_layout, spots_of
from lawspeaker.service import GM, PUBLIC, GameService
from lawspeaker.store import open_store


@pytest.mark.parametrize("variant_name", VARIANTS)
def test_every_phase_of_a_random_game_draws_over_the_image(variant_name: str) -> None:
    variant = lawspeaker.load_variant(variant_name)
    rng = random.Random(f"backdrop-{variant_name}")
    image = plain_png(*image_size(variant))
    half = Backdrop.of(full_layout(variant, only=len(spots_of(variant)) // 2), image, "half")
    with tempfile.TemporaryDirectory() as folder:
        store = open_store(f"sqlite:///{Path(folder) / 'games.db'}")
        try:
            service = GameService(store)
            service.create_game(variant_name, "g", actor=GM)
            service.upload_backdrop("g", image, dump_layout(full_layout(variant)), actor=GM)
            for _ in range(PHASES):
                position = service.position("g", actor=PUBLIC)
                if position.result:
                    break
                post_everyone(service, "g", variant, position, rng)
                code = service.game("g", actor=PUBLIC).phase_code
                for when in ("standing", "processed"):
                    if when == "processed":
                        assert service.process("g", actor=GM).phase
                    svg = str(service.picture("g", code, orders=True, actor=GM))
                    assert 'id="backdrop-image"' in svg, when
                    assert 'id="backdrop-image"' in str(
                        service.picture("g", code, orders=True, actor=PUBLIC))
                    assert 'id="backdrop-image"' in str(
                        service.picture("g", code, orders=True, actor=GM, backdrop=half))
                    if variant.uses("favor_map"):  # the Favor Map is never over the image
                        favor = str(service.picture("g", code, orders=True, actor=GM,
                                                    board="favor"))
                        assert 'id="backdrop-image"' not in favor
        finally:
            store.close()
