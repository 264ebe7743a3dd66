"""Loading images from files with errors a person can act on.

Every loader returns a BGR ``uint8`` array of shape ``(height, width, 3)``, whatever the file
held (grey, alpha, 16-bit), so that later stages never branch on the input format.
A file that cannot be used raises :class:`ImageLoadError`, whose message names the file and
says what is wrong with it; callers print that message instead of a traceback.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

Image = NDArray[np.uint8]


class ImageLoadError(ValueError):
    """A file that is missing, empty or not a picture OpenCV can decode."""

    def __init__(self, path: str | Path, reason: str) -> None:
        self.path = str(path)
        self.reason = reason
        super().__init__(f"{self.path}: {reason}")


def read_bytes(path: str | Path) -> bytes:
    """The raw bytes of an image file, or :class:`ImageLoadError` saying why not."""
    p = Path(path)
    if not p.exists():
        raise ImageLoadError(path, "no such file")
    if p.is_dir():
        raise ImageLoadError(path, "is a folder, not an image file")
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise ImageLoadError(path, f"cannot be read ({exc.strerror or exc})") from None
    if not data:
        raise ImageLoadError(path, "the file is empty (0 bytes)")
    return data


def decode_image(data: bytes, name: str | Path = "<bytes>") -> Image:
    """Decode encoded image bytes (JPEG, PNG, BMP, TIFF, WebP ...) to BGR ``uint8``.

    ``name`` only appears in error messages.
    """
    if not data:
        raise ImageLoadError(name, "the file is empty (0 bytes)")
    buf = np.frombuffer(data, dtype=np.uint8)
    try:
        # Any depth (16-bit is scaled deliberately below) and grey or colour as stored, and
        # turned as the EXIF orientation says: corners are given in the picture as it is
        # shown (a phone stores its portrait photos sideways, with that tag).
        # (IMREAD_UNCHANGED would ignore the orientation; alpha is dropped either way.)
        img = cv2.imdecode(buf, cv2.IMREAD_ANYDEPTH | cv2.IMREAD_ANYCOLOR)
    except cv2.error:
        img = None
    if img is None or img.size == 0:
        if data[4:8] == b"ftyp" and data[8:12] in _HEIF_BRANDS:
            raise ImageLoadError(
                name, "a HEIC/HEIF photo, which OpenCV cannot decode: save it as JPEG (or set "
                "the phone's camera to 'Most Compatible') and try again"
            )
        raise ImageLoadError(
            name, "not an image OpenCV can decode (corrupt, truncated or not a picture)"
        )
    return to_bgr8(img, name)


# the brands of an ISO media file that hold a HEIF picture (a phone's default photo format)
_HEIF_BRANDS = (b"heic", b"heix", b"hevc", b"hevx", b"heim", b"heis", b"mif1", b"msf1", b"avif")


def to_bgr8(img: NDArray[Any], name: str | Path = "<array>") -> Image:
    """Any 2-D grey or 3/4-channel image array as a contiguous BGR ``uint8`` array."""
    if img.dtype != np.uint8:
        if img.dtype == np.uint16:
            img = (img >> 8).astype(np.uint8)
        elif np.issubdtype(img.dtype, np.floating):
            img = np.clip(np.nan_to_num(img) * 255.0, 0, 255).astype(np.uint8)
        else:
            img = np.clip(img, 0, 255).astype(np.uint8)
    out: NDArray[Any]
    if img.ndim == 2:
        out = cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
    elif img.ndim == 3 and img.shape[2] == 1:
        out = cv2.cvtColor(img[:, :, 0], cv2.COLOR_GRAY2BGR)
    elif img.ndim == 3 and img.shape[2] == 3:
        out = img
    elif img.ndim == 3 and img.shape[2] == 4:
        out = cv2.cvtColor(img, cv2.COLOR_BGRA2BGR)
    else:
        raise ImageLoadError(name, f"unsupported image layout {img.shape}")
    return np.ascontiguousarray(out, dtype=np.uint8)


def load_image(path: str | Path) -> Image:
    """Read and decode one image file (see :func:`decode_image`)."""
    return decode_image(read_bytes(path), path)
