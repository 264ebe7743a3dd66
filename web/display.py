"""GET /: the tablet page. Everything it needs is served from web/static (no internet)."""

from __future__ import annotations

from flask import Blueprint, render_template

bp = Blueprint("display", __name__)


@bp.get("/")
def index() -> str:
    return render_template("table.html")
