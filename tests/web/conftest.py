"""Fixtures for the web tests: a real TableSession on a temporary SQLite journal, playing the
tiny campaign, and the Flask app around it (flaskr style: ``app`` and ``client``)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

# This folder is called ``web`` like the package under test. When pytest is started as
# ``pytest`` (not ``python -m pytest``) the repository is not on sys.path, and ``import web``
# would find this folder as an empty namespace package; put the real one first.
_REPO = Path(__file__).resolve().parents[2]
if str(_REPO) not in sys.path[:1]:
    sys.path.insert(0, str(_REPO))
if getattr(sys.modules.get("web"), "__file__", None) is None:
    sys.modules.pop("web", None)

import pytest  # noqa: E402
from flask import Flask  # noqa: E402
from flask.testing import FlaskClient  # noqa: E402
from web_helpers import make_app  # noqa: E402

from companion.table.session import TableSession  # noqa: E402


@pytest.fixture
def examples_dir(shared_dir: Path) -> Path:
    return shared_dir / "examples"


@pytest.fixture
def tiny_campaign(examples_dir: Path) -> Path:
    return examples_dir / "tiny-campaign.toml"


@pytest.fixture
def session(tmp_path: Path, tiny_campaign: Path) -> Iterator[TableSession]:
    table = TableSession.open(tmp_path / "table", tiny_campaign, seed=7)
    yield table
    table.close()


@pytest.fixture
def app(session: TableSession, examples_dir: Path) -> Flask:
    return make_app(session, examples_dir)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()
