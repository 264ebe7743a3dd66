"""What a function of the card reader is called with while frames are read, taken on the
sources: for tests that compare a compiled piece (a C kernel) with the sources' numpy on
the very inputs a frame read gives it.

    cases = sourcecalls.calls("vision.fan", "band_steps", "fan5-seed2")

The compiled modules call their own functions directly, so a function swapped out in the
test's process sees none of those calls.  The frames are read again in a child Python on the
sources (``COMPANION_PURE_PYTHON=1``), where the function is swapped for one that keeps its
arguments; they come back pickled, in the order the calls were made.  The sources and the
compiled reader make the same calls with the same arguments (tests/vision/test_native.py
reads alike both ways to the bit).

    python tests/vision/sourcecalls.py MODULE FUNCTION SCENE OUT    # what calls() runs
"""

from __future__ import annotations

import importlib
import os
import pickle
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


def _scene(name: str) -> list[Any]:
    """The frames of a named scene, built from the phone-scenes photos' cards."""
    import frames
    import realdata

    from vision.pipeline import Recognizer

    crops = frames.card_crops(Recognizer(), realdata.photos("phone-scenes"))
    kind, seed = name.rsplit("-seed", 1)
    if kind == "fan5":
        return [frames.fan_frame(crops, 5, seed=int(seed))[0]]
    if kind == "row6":
        return [frames.fan_hand(crops, 6, seed=int(seed), layout="row", jitter=3.0).frame]
    if kind == "touch12":
        return [frames.touching_frame(crops, 12, size=(1280, 720), seed=int(seed))[0]]
    raise ValueError(f"no scene {name!r}: fan5-seedN, row6-seedN or touch12-seedN")


def calls(module: str, function: str, scene: str) -> list[tuple[Any, ...]]:
    """The positional arguments of every call of ``module.function`` while the frames of
    ``scene`` are read on the sources (keyword arguments are not expected; an argument that
    is neither an array nor a plain value, the recognizer's config, comes back as None)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "calls.pickle"
        env = dict(os.environ, COMPANION_PURE_PYTHON="1")
        proc = subprocess.run([sys.executable, __file__, module, function, scene, str(out)],
                              cwd=ROOT, env=env, capture_output=True, text=True, check=False)
        if proc.returncode != 0 or not out.exists():
            raise RuntimeError(f"reading {scene} on the sources failed:\n{proc.stderr}")
        with out.open("rb") as f:
            got: list[tuple[Any, ...]] = pickle.load(f)
        return got


def _record(module: str, function: str, scene: str, out: str) -> int:
    for path in (str(ROOT), str(HERE)):
        if path not in sys.path:
            sys.path.insert(0, path)
    from vision import native
    from vision.pipeline import Recognizer

    if native.in_use() == "compiled":
        print("sourcecalls: the compiled reader is in use; set COMPANION_PURE_PYTHON=1",
              file=sys.stderr)
        return 2
    mod = importlib.import_module(module)
    real = getattr(mod, function)
    seen: list[tuple[Any, ...]] = []

    def kept(*args: Any) -> Any:
        # (an argument that is neither an array nor a plain value -- the recognizer's
        # config -- comes back as None: the caller has its own)
        seen.append(tuple(a if isinstance(a, (np.ndarray, int, float, str, tuple, list))
                          else None for a in args))
        return real(*args)

    images = _scene(scene)
    setattr(mod, function, kept)
    rec = Recognizer()
    for image in images:
        rec.read(image)
    with open(out, "wb") as f:
        pickle.dump(seen, f)
    return 0


if __name__ == "__main__":
    sys.exit(_record(*sys.argv[1:5]))
