"""Shared test helpers: where the repository and the shared design folder are; tests
marked ``sources`` run on the card reader's sources."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import companion  # noqa: F401  (first: one BLAS thread, set before numpy is imported)

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"

# A test marked ``sources`` is about the card reader's sources: most swap out a function or
# method of it (vision.native.MODULES) to count or change what it does, which compiled code,
# calling its own functions directly, would not see. Where the compiled modules are in use,
# such tests run all together in a second pytest on the sources (COMPANION_PURE_PYTHON=1),
# each reporting its outcome there as its own.
_on_sources: dict[str, tuple[str, str]] | None = None  # node id -> (outcome, what was said)


def _junit_key(classname: str, name: str) -> str:
    return classname.replace(".", "/") + ".py::" + name


def _run_on_sources(items: list[pytest.Item]) -> dict[str, tuple[str, str]]:
    ids = [i.nodeid for i in items if i.get_closest_marker("sources") is not None]
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "sources.xml"
        env = dict(os.environ, COMPANION_PURE_PYTHON="1")
        proc = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
             f"--junitxml={report}", *ids],
            cwd=REPO, env=env, capture_output=True, text=True, check=False)
        if not report.exists():
            raise RuntimeError(f"pytest on the sources gave no report:\n{proc.stdout}\n"
                               f"{proc.stderr}")
        out: dict[str, tuple[str, str]] = {}
        for case in ET.parse(report).getroot().iter("testcase"):
            key = _junit_key(case.get("classname", ""), case.get("name", ""))
            outcome, said = "passed", ""
            for child in case:
                if child.tag in ("failure", "error", "skipped"):
                    outcome = child.tag
                    said = (child.get("message") or "") + "\n" + (child.text or "")
            out[key] = (outcome, said)
    return out


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    if pyfuncitem.get_closest_marker("sources") is None:
        return None
    from vision import native

    if native.in_use() != "compiled":
        return None  # run here, on the sources
    global _on_sources
    if _on_sources is None:
        _on_sources = _run_on_sources(list(pyfuncitem.session.items))
    got = _on_sources.get(pyfuncitem.nodeid)
    if got is None:
        pytest.fail(f"{pyfuncitem.nodeid} was not run on the sources")
    outcome, said = got
    if outcome != "passed":
        pytest.fail(f"on the sources (COMPANION_PURE_PYTHON=1), {outcome}: {said}")
    return True


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    if not SHARED.is_dir():
        pytest.fail(f"the shared design folder is missing: expected it at {SHARED}")
    return SHARED
