"""Per-stage CPU time of the frame reader, for profiling (``bench/vision_profile.py``).

    stages = Stages(enabled=True)
    with stages("detect"):
        ...
    stages.totals  # {"detect": seconds, ...}, summed until :meth:`Stages.reset`

Disabled (the default everywhere), a stage costs one attribute test and no clock read, so
the recognizer carries the hooks in production.  CPU time of this process is measured
(``time.process_time``): on a shared machine it is steadier than wall time.
"""

from __future__ import annotations

import contextlib
import time
from types import TracebackType


class _Span:
    __slots__ = ("_name", "_stages", "_t0")

    def __init__(self, stages: Stages, name: str) -> None:
        self._stages = stages
        self._name = name
        self._t0 = 0.0

    def __enter__(self) -> None:
        self._t0 = time.process_time()

    def __exit__(
        self,
        _t: type[BaseException] | None,
        _e: BaseException | None,
        _tb: TracebackType | None,
    ) -> None:
        totals = self._stages.totals
        totals[self._name] = totals.get(self._name, 0.0) + time.process_time() - self._t0


_OFF: contextlib.nullcontext[None] = contextlib.nullcontext()


class Stages:
    """Named CPU-time totals (seconds); a no-op unless ``enabled``."""

    def __init__(self, enabled: bool = False) -> None:
        self.enabled = enabled
        self.totals: dict[str, float] = {}

    def __call__(self, name: str) -> _Span | contextlib.nullcontext[None]:
        return _Span(self, name) if self.enabled else _OFF

    def reset(self) -> dict[str, float]:
        """The totals so far (seconds), and start again from zero."""
        out, self.totals = self.totals, {}
        return out
