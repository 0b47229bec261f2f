"""The GM's upload of an official map image and its layout (docs/maps.md,
"Drawing over the official map"): one form on the GM's part of the game page.

The service checks everything before anything is kept; a refusal comes back
to the game page as one sentence, and nothing changes. Only this route takes
a body larger than :data:`.sizes.MAX_BODY` (:data:`.sizes.MAX_UPLOAD`).
"""

from __future__ import annotations

from urllib.parse import quote

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import RedirectResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile

from ..service import ServiceError
from .auth import check_csrf, service, viewer
from .sizes import MAX_UPLOAD, UPLOAD_SUFFIX

__all__ = ["router"]

router = APIRouter(include_in_schema=False)


def _back(request: Request, name: str, message: str) -> RedirectResponse:
    request.session["flash"] = message
    return RedirectResponse(f"/games/{quote(name, safe='')}", status_code=303)


@router.post("/games/{name}" + UPLOAD_SUFFIX)
async def upload(request: Request, name: str) -> Response:
    """Upload (``image`` and ``layout`` files) or, with ``remove``, stop
    drawing over the image."""
    async with request.form(max_part_size=MAX_UPLOAD, max_files=2, max_fields=10) as form:
        check_csrf(request, str(form.get("csrf", "")))
        v = viewer(request, name)
        if not v.gm:
            raise HTTPException(403, "only the GM may do that")
        svc = service(request)
        if form.get("remove"):
            removed = await run_in_threadpool(svc.remove_backdrop, name, actor=v)
            return _back(request, name, "The maps are drawn without the image again."
                         if removed else "There was no map image to remove.")
        image, layout = form.get("image"), form.get("layout")
        if not isinstance(image, UploadFile) or not image.filename:
            return _back(request, name, "Map image not taken: choose the image file.")
        if not isinstance(layout, UploadFile) or not layout.filename:
            return _back(request, name, "Map image not taken: choose the layout file "
                                        "('lawspeaker map calibrate' writes it).")
        image_bytes, layout_bytes = await image.read(), await layout.read()
        try:
            info = await run_in_threadpool(svc.upload_backdrop, name, image_bytes,
                                           layout_bytes, actor=v, image_name=image.filename)
        except ServiceError as exc:
            return _back(request, name, f"Map image not taken: {exc}")
        return _back(request, name, f"Map image set ({info.width}x{info.height} px): every "
                                    "map of this game is now drawn over it.")
