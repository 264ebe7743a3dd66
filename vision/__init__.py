"""Card recognition: frames in, cards and QR codes out."""

import os as _os

# numpy's BLAS would otherwise start a thread per core for the small matrix products of a
# frame read, which doubles the CPU a frame costs for no gain in time (the frame loop is
# one thread by design); set before numpy is first imported.  A value the user set wins.
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    _os.environ.setdefault(_var, "1")

# the compiled card reader where it is built and current (see vision.native)
from vision import native as _native  # noqa: E402

_native.activate(__path__)
