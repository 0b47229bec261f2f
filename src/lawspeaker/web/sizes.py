"""The size limits of requests (the app, the API and the pages read them)."""

from __future__ import annotations

MAX_BODY = 256 * 1024
"""The largest request body accepted, in bytes."""

MAX_POST = 20_000
"""The longest post of orders, in characters (a long S9 post is ~2,000)."""

MAX_PNG_WIDTH = 2000
"""The widest map PNG served, in pixels: forums and Discord shrink or refuse
wider images; larger drawings (Dissolution's map is 3,915 px) are scaled down."""

MAX_UPLOAD = 9 * 1024 * 1024
"""The largest body of the GM's upload of an official map image and its
layout (the image itself is at most 8 MiB: ``service.backdrops``)."""

UPLOAD_SUFFIX = "/gm/backdrop"
"""The one route that takes :data:`MAX_UPLOAD`; every other takes :data:`MAX_BODY`."""
