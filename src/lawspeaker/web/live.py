"""Live updates: server-sent events when a game's phase changes.

Every worker polls the database (:meth:`GameService.progress`, one light
query), so an update reaches every open page whichever worker processed the
phase. Events carry public information only: the new phase and the result.
A stream ends after :data:`MAX_STREAM` seconds; browsers reconnect by
themselves (``EventSource``), which keeps a worker's connections bounded.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator

from fastapi import APIRouter, Request
from fastapi.responses import StreamingResponse
from starlette.concurrency import run_in_threadpool

from ..service import PUBLIC
from .auth import service

__all__ = ["router"]

router = APIRouter(tags=["live"])

MAX_STREAM = 300.0
HEARTBEAT = 15.0


@router.get("/games/{name}/events", summary="Server-sent events: 'phase' when processed")
@router.get("/api/v1/games/{name}/events", summary="Server-sent events: 'phase' when processed")
async def events(request: Request, name: str) -> StreamingResponse:
    svc = service(request)
    start = await run_in_threadpool(svc.progress, name, actor=PUBLIC)  # 404 before the stream opens
    poll: float = request.app.state.poll

    async def stream() -> AsyncIterator[str]:
        last = start
        began = beat = time.monotonic()
        yield "retry: 3000\n\n"
        while time.monotonic() - began < MAX_STREAM:
            await asyncio.sleep(poll)
            if await request.is_disconnected():
                return
            now = await run_in_threadpool(svc.progress, name, actor=PUBLIC)
            if now != last:
                last = now
                data = json.dumps({"phase": now[1], "result": now[2]})
                yield f"event: phase\ndata: {data}\n\n"
            elif time.monotonic() - beat > HEARTBEAT:
                beat = time.monotonic()
                yield ": still here\n\n"

    return StreamingResponse(stream(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
