"""What kind of picture a file is, and its size in pixels, read from its
header: PNG, JPEG, GIF and WebP, the formats browsers and resvg both draw.

Only the header is read (no decoder is needed to lay units over a map), and
anything else is refused with a sentence saying so.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

__all__ = ["IMAGE_TYPES", "ImageInfo", "image_info"]

IMAGE_TYPES = {"png": "image/png", "jpeg": "image/jpeg", "gif": "image/gif",
               "webp": "image/webp"}


@dataclass(frozen=True, slots=True)
class ImageInfo:
    kind: str
    """``png``, ``jpeg``, ``gif`` or ``webp``."""
    width: int
    height: int

    @property
    def media_type(self) -> str:
        return IMAGE_TYPES[self.kind]


def image_info(data: bytes) -> ImageInfo:
    """The type and size of a PNG, JPEG, GIF or WebP image; ``ValueError``
    naming the problem for anything else."""
    if data.startswith(b"\x89PNG\r\n\x1a\n") and data[12:16] == b"IHDR" and len(data) >= 24:
        width, height = struct.unpack(">II", data[16:24])
        return _checked("png", width, height)
    if data.startswith(b"\xff\xd8"):
        return _jpeg(data)
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        width, height = struct.unpack("<HH", data[6:10])
        return _checked("gif", width, height)
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return _webp(data)
    raise ValueError("not a PNG, JPEG, GIF or WebP image")


def _checked(kind: str, width: int, height: int) -> ImageInfo:
    if width <= 0 or height <= 0:
        raise ValueError(f"the {kind.upper()} image says it is {width}x{height} pixels")
    return ImageInfo(kind, width, height)


def _jpeg(data: bytes) -> ImageInfo:
    i = 2
    while i + 9 < len(data):
        if data[i] != 0xFF:
            break
        marker = data[i + 1]
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            i += 2
            continue
        length = struct.unpack(">H", data[i + 2:i + 4])[0]
        # start-of-frame markers carry the size (all SOFn but DHT, JPG, DAC)
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            height, width = struct.unpack(">HH", data[i + 5:i + 9])
            return _checked("jpeg", width, height)
        i += 2 + length
    raise ValueError("a JPEG image without a readable size (truncated or damaged)")


def _webp(data: bytes) -> ImageInfo:
    chunk = data[12:16]
    if chunk == b"VP8X" and len(data) >= 30:
        width = 1 + int.from_bytes(data[24:27], "little")
        height = 1 + int.from_bytes(data[27:30], "little")
        return _checked("webp", width, height)
    if chunk == b"VP8 " and len(data) >= 30:
        width, height = struct.unpack("<HH", data[26:30])
        return _checked("webp", width & 0x3FFF, height & 0x3FFF)
    if chunk == b"VP8L" and len(data) >= 25:
        bits = int.from_bytes(data[21:25], "little")
        return _checked("webp", (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
    raise ValueError("a WebP image without a readable size (truncated or damaged)")
