"""Shared test helpers: where the repository and the shared design folder are."""

from __future__ import annotations

from pathlib import Path

import pytest

import companion  # noqa: F401  (first: one BLAS thread, set before numpy is imported)

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    if not SHARED.is_dir():
        pytest.fail(f"the shared design folder is missing: expected it at {SHARED}")
    return SHARED
