"""The tablet's "Teach this deck": teaching the table's camera a deck, one card at a time.

``GET /api/teach`` says what is going on (the card asked for, seen / still / taken, progress,
the camera's state); ``POST /api/teach/start`` (``{"name": "red-deck", "cards": "all",
"add": false}``), ``/skip``, ``/redo`` and ``/finish`` need the table's PIN. The teaching
itself (``vision.teach.CameraTeaching``) runs on the frames of the table's own camera loop
and hands each improved profile to that loop's reader; ``companion play`` enables it with
:func:`enable` when it has a camera. Without one, every answer says so.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask, Response, current_app, jsonify, request

from web.api import changing, json_body
from web.errors import ApiError

bp = Blueprint("teach", __name__, url_prefix="/api/teach")

EXTENSION = "teach"
NO_CAMERA = ("This table has no camera, so it cannot be taught a deck. Start it with "
             "'companion play --camera N' (or --video FILE, --url URL), or teach from photos "
             "with 'companion deck teach PROFILE LABELS.csv'.")


def enable(app: Flask, teaching: Any) -> None:
    """Let the tablet teach through ``teaching`` (a ``vision.teach.CameraTeaching``)."""
    app.extensions[EXTENSION] = teaching


def _teaching() -> Any:
    return current_app.extensions.get(EXTENSION)


def _needs_camera() -> Any:
    teaching = _teaching()
    if teaching is None:
        raise ApiError(409, NO_CAMERA, camera=False)
    return teaching


def _optional_body() -> dict[str, Any]:
    # The buttons carry nothing; an empty body is as good as {}.
    return json_body() if request.get_data(cache=True).strip() else {}


@bp.get("")
def status() -> Response:
    teaching = _teaching()
    if teaching is None:
        return jsonify({"camera": False, "active": False, "message": NO_CAMERA})
    return jsonify(teaching.status())


@bp.post("/start")
def start() -> Response:
    changing()
    teaching = _needs_camera()
    body = _optional_body()
    name = body.get("name", "table")
    cards = body.get("cards", "all")
    add = body.get("add", False)
    if not isinstance(name, str):
        raise ApiError(400, "\"name\" is the deck's name, such as \"red-deck\"")
    if not isinstance(cards, str):
        raise ApiError(400, "\"cards\" is a text such as \"all\", \"H\" or \"QH,KH\"")
    if not isinstance(add, bool):
        raise ApiError(400, "\"add\" is true or false")
    try:
        return jsonify(teaching.start(name.strip(), cards, add))
    except ValueError as exc:      # vision.teach.TeachError: a bad name or card list
        status = 409 if "already teaching" in str(exc) else 400
        raise ApiError(status, str(exc)) from None


def _button(what: str) -> Response:
    changing()
    teaching = _needs_camera()
    _optional_body()
    try:
        return jsonify(getattr(teaching, what)())
    except ValueError as exc:      # nothing is being taught
        raise ApiError(409, str(exc)) from None


@bp.post("/skip")
def skip() -> Response:
    return _button("skip")


@bp.post("/redo")
def redo() -> Response:
    return _button("redo")


@bp.post("/finish")
def finish() -> Response:
    return _button("finish")
