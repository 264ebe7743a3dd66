"""The card reader compiled: the modules a frame read spends its Python time in, compiled
to C by mypyc (``scripts/build_native.py``, which ``scripts/setup.sh`` runs) from these very
sources, their types and all, and used in their place.

A frame read is thousands of small calls into OpenCV and numpy; the interpreter's own work
between them is a fifth of its instructions and more of its time, and compiled it is
about a tenth of the frame's time less (see README, "Speed").  Compiled code does what the
source says, with its annotations enforced (a value of another type is a ``TypeError``)
and its functions bound where they are called (a test that swaps one out runs on the
sources: see ``tests/conftest.py``).

Built with them is a small C extension, ``vision/_kernels.c``: twenty-five loops over a
patch's or a glyph's pixels (a percentile, the paper's colour and light, a glyph's square
padded, its gradient histograms and their blocks, the rest of its features, the width of
its top, the labels of connected components, their statistics, a glyph's cut from them and
the ends of each one's rows, the openings by a line, the dents in a suit glyph's sides, the
median colour of a corner patch's paper), the glyph scores (each
class's best less the aspect penalty), an outline's points (the lines fitted to a card's
sides, how much of a quad's outline runs along them) or the cards' quads (their corners
put in order, their areas and sides' lengths, the step down from their paper at their
sides, their sides moved onto the edges near them) that numpy and OpenCV take several
calls or a slow pass each for, giving the same numbers to the bit;
the compiled modules call it (:func:`kernels`), the sources do that work themselves.

The compiled modules are used only where they were built from exactly the sources beside
them, by this Python: the build writes a digest of both (:func:`digest`) beside its
libraries, and :func:`activate` puts their directory first on the package's path only
where that digest is the current one.  Otherwise (not built, a source edited since, another
Python) the sources run, as they always can; ``COMPANION_PURE_PYTHON=1`` asks for them.
This module is never compiled itself.
"""

from __future__ import annotations

import hashlib
import os
import sys
import sysconfig
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, cast

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

# the modules compiled (of the package ``vision``), in one group: they call each other
# natively
MODULES = ("pipeline", "detect", "glyphs", "neighbours", "timing", "fan")
# ... and built beside them, C written for the loops numpy and OpenCV take several calls for
# (vision/_kernels.c): the extension module ``vision._kernels``, used with the compiled
# modules only (see kernels())
KERNELS = "_kernels"
# the group's shared library is the package's module ``native__mypyc``
GROUP = "vision.native"
PURE_ENV = "COMPANION_PURE_PYTHON"
DIR_ENV = "COMPANION_NATIVE_DIR"  # where the build lies, for another than build/native
STAMP = "SOURCES"

PACKAGE = Path(__file__).resolve().parent

# what activate() found: "compiled", or why the sources run
status = "sources: not looked for"


def build_dir() -> Path:
    """Where the build lies: the directory holding the compiled package ``vision/``."""
    chosen = os.environ.get(DIR_ENV)
    return Path(chosen) if chosen else PACKAGE.parent / "build" / "native"


def digest() -> str:
    """The digest of what a build is made from: the compiled modules' sources and the
    Python (its version and its extension modules' suffix)."""
    h = hashlib.sha256()
    h.update(sys.version.encode())
    h.update(str(sysconfig.get_config_var("EXT_SUFFIX")).encode())
    for name in MODULES:
        h.update(name.encode() + b"\0")
        h.update((PACKAGE / f"{name}.py").read_bytes())
    h.update(KERNELS.encode() + b"\0")
    h.update((PACKAGE / f"{KERNELS}.c").read_bytes())
    return h.hexdigest()


def built_digest() -> str | None:
    """The digest the build lying in :func:`build_dir` was made from (None: none lies there)."""
    try:
        return (build_dir() / "vision" / STAMP).read_text().strip()
    except OSError:
        return None


def activate(path: list[str]) -> str:
    """Put the compiled modules first on the package's ``path`` where they are current;
    what was found ("compiled", or why the sources run) is kept in :data:`status`."""
    global status
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        status = f"sources: {PURE_ENV} is set"
    else:
        built = built_digest()
        if built is None:
            status = "sources: not compiled (scripts/setup.sh compiles them)"
        elif built != digest():
            status = ("sources: compiled from other sources or another Python "
                      "(scripts/setup.sh compiles them again)")
        else:
            path.insert(0, str(build_dir() / "vision"))
            status = "compiled"
    return status


class Kernels(Protocol):
    """What ``vision/_kernels.c`` offers (its comments say what each gives)."""

    def level(self, grey: NDArray[np.uint8], rows: int, cols: int, k: int) -> int: ...

    def paper(self, bgr: NDArray[np.uint8], grey: NDArray[np.uint8], rows: int, cols: int,
              t: int) -> tuple[int, int, int, int]: ...

    def paper_light(self, grey: NDArray[np.uint8], rows: int, cols: int,
                    out: NDArray[np.uint8]) -> tuple[float, float]: ...

    def hog_hist(self, squares: NDArray[np.float32], bins: NDArray[np.uint8],
                 weights: NDArray[np.float64], out: NDArray[np.float64]) -> None: ...

    def cc_label(self, mask: NDArray[np.uint8], rows: int, cols: int,
                 labels: NDArray[np.uint16], stats: NDArray[np.int32]) -> int: ...

    def cc_stats(self, labels: NDArray[np.uint16], rows: int, cols: int,
                 out: NDArray[np.int32]) -> None: ...

    def row_ends(self, labels: NDArray[np.uint16], rows: int, cols: int,
                 boxes: NDArray[np.int32], n: int, dx: int, dy: int,
                 points: NDArray[np.float32], cuts: NDArray[np.int64]) -> int: ...

    def open_lines(self, mask: NDArray[np.uint8], rows: int, cols: int, n: int, vertical: bool,
                   lo: int, hi: int, out: NDArray[np.uint8]) -> None: ...

    def notches(self, mask: NDArray[np.uint8], rows: int, cols: int
                ) -> tuple[float, float] | None: ...

    def fit_sides(self, points: NDArray[np.float64], counts: NDArray[np.int64],
                  quads: NDArray[np.float64], dirs: NDArray[np.float64],
                  lengths: NDArray[np.float64], n_quads: int, rounds: int, huber: float,
                  out: NDArray[np.float64]) -> None: ...

    def hog_blocks(self, hist: NDArray[np.float64], num: int, out: NDArray[np.float32]
                   ) -> None: ...

    def glyph_tail(self, squares: NDArray[np.float32], hog: NDArray[np.float32], num: int,
                   out: NDArray[np.float32]) -> None: ...

    def label_mask(self, labels: NDArray[np.uint16], rows: int, cols: int, x0: int, y0: int,
                   x1: int, y1: int, ids: list[int], out: NDArray[np.uint8]) -> None: ...

    def ink_span(self, mask: NDArray[np.uint8], rows: int, cols: int, y: int) -> int: ...

    def pad_levels(self, mask: NDArray[np.uint8], rows: int, cols: int, pad: int,
                   out: NDArray[np.float32]) -> None: ...

    def side_steps(self, grey: NDArray[np.uint8], rows: int, cols: int,
                   quads: NDArray[np.float32], n: int, reach: float) -> float: ...

    def paper_median(self, bgr: NDArray[np.uint8], grey: NDArray[np.uint8], rows: int, cols: int
                     ) -> tuple[float, float, float]: ...

    def unsaturated(self, bgr: NDArray[np.uint8], rows: int, cols: int, saturation: float,
                    top: int, left: int) -> tuple[int, int, int]: ...

    def inside_count(self, points: NDArray[np.float64], n: int, contours: NDArray[np.float32],
                     sizes: NDArray[np.int32], m: int) -> int: ...

    def band_steps(self, grey: NDArray[np.uint8], rows: int, cols: int,
                   spans: NDArray[np.int32], n: int, across: int, lo: int, hi: int
                   ) -> tuple[tuple[int, float], ...]: ...

    def snap_sides(self, grey: NDArray[np.uint8], rows: int, cols: int, quad: NDArray[np.float32],
                   reach: int, contrast: float, spans: NDArray[np.float32], t1: float, t2: float,
                   out: NDArray[np.float32]) -> bool: ...

    def outline_off(self, contour: NDArray[np.int32], n: int, points: NDArray[np.float64],
                    m: int, tol: float, share: float, dists: NDArray[np.float64]) -> int: ...

    def order_corners(self, quad: NDArray[np.float32], out: NDArray[np.float32]) -> bool: ...

    def quad_area(self, quad: NDArray[np.floating[Any]], wide: bool) -> float: ...

    def quad_sides(self, quad: NDArray[np.floating[Any]], wide: bool,
                   out: NDArray[np.float64]) -> None: ...

    def class_best(self, sims: NDArray[np.float32], asked: NDArray[np.float32],
                   aspects: NDArray[np.float32], weight: float, starts: NDArray[np.int64],
                   classes: NDArray[np.int64], out: NDArray[np.float32]) -> None: ...


def kernels() -> Kernels | None:
    """The C kernels where the compiled modules are in use (they are built, and current,
    together); None where the sources run, which then do the same work themselves (as the
    compiled modules do where the kernels are missing from a build: they give the same
    numbers, only later)."""
    if status != "compiled":
        return None
    import importlib

    try:
        return cast(Kernels, importlib.import_module(f"vision.{KERNELS}"))
    except ImportError:
        return None


def in_use() -> str:
    """Which of the two a frame read runs: "compiled" or "sources", by where the modules
    were loaded from (one line, for benchmarks and reports)."""
    import vision.pipeline

    loaded = Path(vision.pipeline.__file__ or "")
    return "compiled" if loaded.suffix != ".py" else "sources"
