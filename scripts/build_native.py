"""Compile the card reader's hot modules with mypyc (see vision/native.py).

    .venv/bin/python scripts/build_native.py [--force | --check]

Does nothing where the build in build/native is current (made from these sources by this
Python); else compiles ``vision.native.MODULES`` into one group, and the C kernels
(``vision/_kernels.c``) beside them, about a minute and a half on one core, and writes the
digest they were built from beside them last (a build broken off is never used).  One
build at a time: where another is under way this one waits for it and does not compile
again what it made.  Needs mypy (which holds mypyc), setuptools, a C compiler and Python's
headers; exit status 0 when the build is current, 1 when it failed (the sources still run,
as they always can), 2 when a tool is missing; with ``--check``, 0 when current and 3 when
not, compiling nothing.
"""

from __future__ import annotations

import argparse
import fcntl
import os
import shutil
import sys
import sysconfig
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ["COMPANION_PURE_PYTHON"] = "1"  # (importing vision must not load a build)

from vision import native  # noqa: E402


def say(message: str) -> None:
    print(f"[build_native] {message}", file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    how = ap.add_mutually_exclusive_group()
    how.add_argument("--force", action="store_true", help="compile even where current")
    how.add_argument("--check", action="store_true",
                     help="only say by the exit status whether the build is current (0) or not (3)")
    args = ap.parse_args(argv)
    out = native.build_dir()
    want = native.digest()
    if args.check:
        return 0 if native.built_digest() == want else 3
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out.parent / (out.name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # (released when the file is closed)
        if not args.force and native.built_digest() == want:
            return 0  # (current: nothing to say)
        return _compile(out, want)


def _compile(out: Path, want: str) -> int:
    try:
        from mypyc.build import mypycify
        from setuptools import Extension, setup
    except ImportError as exc:
        say(f"cannot compile: {exc.name} is missing "
            f"(.venv/bin/python -m pip install mypy setuptools)")
        return 2
    work = out.parent / (out.name + "-work")
    for d in (out, work):
        shutil.rmtree(d, ignore_errors=True)
    say(f"compiling {', '.join(native.MODULES)} with mypyc, and {native.KERNELS}.c, into "
        f"{out} (a minute or two, once per change of these sources)")
    t0 = time.monotonic()
    here = Path.cwd()
    log = work / "build.log"
    work.mkdir(parents=True)
    try:
        os.chdir(ROOT)  # (mypyc reads the project's mypy settings from pyproject.toml)
        saved = os.dup(1), os.dup(2)
        with open(log, "w") as sink:
            os.dup2(sink.fileno(), 1)
            os.dup2(sink.fileno(), 2)
            try:
                extensions = mypycify(
                    [f"vision/{name}.py" for name in native.MODULES],
                    opt_level="3", group_name=native.GROUP, target_dir=str(work / "c"),
                )
                # the C kernels: plain IEEE arithmetic (no fused multiply-adds), as numpy's,
                # and the C library's angles, as Python's math module's
                kernels = Extension(f"vision.{native.KERNELS}", [f"vision/{native.KERNELS}.c"],
                                    extra_compile_args=["-O2", "-ffp-contract=off",
                                                        *_vectorising()],
                                    libraries=["m"])
                setup(name="vision-native", ext_modules=[*extensions, kernels], script_args=[
                    "build_ext", "--build-lib", str(out), "--build-temp", str(work / "o")])
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os.dup2(saved[0], 1)
                os.dup2(saved[1], 2)
    except (Exception, SystemExit) as exc:  # noqa: BLE001  (setuptools exits on a failed compile)
        say(f"compiling failed ({exc}); the sources run instead. The compiler said "
            f"(the end of {log}):")
        print("".join(log.read_text(errors="replace").splitlines(keepends=True)[-25:]),
              file=sys.stderr)
        shutil.rmtree(out, ignore_errors=True)
        return 1
    finally:
        os.chdir(here)
    (out / "vision" / native.STAMP).write_text(want + "\n")
    shutil.rmtree(work, ignore_errors=True)
    say(f"compiled in {time.monotonic() - t0:.0f} s")
    return 0


def _vectorising() -> list[str]:
    """GCC's flag for loops over whole rows vectorised where it judges that cheap (at -O2
    it vectorises only loops it needs no remainder for): the light of a card's middle
    (paper_light) twice as fast. Its vectoriser never reorders a floating-point sum by
    itself, so every number stays; other compilers get none (clang knows no such flag)."""
    cc = os.environ.get("CC") or str(sysconfig.get_config_var("CC") or "")
    return ["-fvect-cost-model=cheap"] if "gcc" in cc and "clang" not in cc else []


if __name__ == "__main__":
    sys.exit(main())
