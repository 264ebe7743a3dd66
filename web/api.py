"""The JSON API (FORMATS.md "The table's HTTP API") and the page's own endpoints.

Watching (no PIN): ``GET /api/state``, ``GET /api/questions``, ``GET /api/games`` (saved games
and the campaigns a new game may use), ``GET /api/record`` (the game record, JSON Lines;
``?download=1`` for a file). Changing (``X-Table-PIN``, body ``{"state_id": n, ...}``):
``POST /api/actions`` (``"line"``), ``/api/undo``, ``/api/redo``, ``/api/jaffar/auto``,
``/api/questions/<id>`` (``"choice"``), ``/api/table-events`` (``"event"``); and, without a
state_id, ``POST /api/games`` (``{"campaign": "file.toml"}``) and ``/api/games/<id>/switch``.

Anyone may watch (GET); every change needs the table's PIN in the ``X-Table-PIN`` header and
the ``state_id`` the client last saw. The views only check the envelope of a request; the
session decides everything about the game and raises the refusals that become 409 and 422.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request

from web.context import TableContext, table
from web.errors import ApiError

bp = Blueprint("api", __name__, url_prefix="/api")

PIN_HEADER = "X-Table-PIN"


# -- request helpers ------------------------------------------------------------------------


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def json_body() -> dict[str, Any]:
    """The request body as a JSON object, or a 400 that says what is wrong with it."""
    raw = request.get_data(cache=True)
    if not raw.strip():
        raise ApiError(400, "the body is empty: send a JSON object such as "
                       "{\"state_id\": 12, \"line\": {...}}")
    try:
        data = json.loads(raw, parse_constant=_reject_constant)
    except RecursionError:
        raise ApiError(400, "the body is not valid JSON (nested too deeply)") from None
    except ValueError as exc:   # JSONDecodeError and UnicodeDecodeError are ValueErrors
        raise ApiError(400, f"the body is not valid JSON ({_short(exc)})") from None
    if not isinstance(data, dict):
        raise ApiError(400, f"the body must be a JSON object, not {_json_kind(data)}")
    return data


def state_id_of(body: dict[str, Any]) -> int:
    if "state_id" not in body:
        raise ApiError(400, "the body needs \"state_id\": the state the change was made against")
    value = body["state_id"]
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ApiError(400, f"\"state_id\" must be a whole number >= 0, not {_json_kind(value)}")
    return value


def changing() -> TableContext:
    """The table, once the request has shown the right PIN (else 403; 429 after too many
    wrong ones from the same address)."""
    ctx = table()
    client = request.remote_addr or "?"
    wait = ctx.locked_for(client)
    if wait > 0:
        raise ApiError(429, f"too many wrong PINs: wait {wait:.0f} s and try again",
                       retry_after=round(wait))
    given = request.headers.get(PIN_HEADER)
    if not given:
        raise ApiError(403, f"changing the game needs the table's PIN (header {PIN_HEADER})")
    ok = ctx.pin_ok(given)
    ctx.record_pin(client, ok, int(current_app.config["PIN_TRIES"]),
                   float(current_app.config["PIN_LOCKOUT"]))
    if not ok:
        raise ApiError(403, "wrong PIN")
    return ctx


def _json_kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return f"the number {value!r}"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    return "an object"


def _short(exc: Exception) -> str:
    text = str(exc)
    return text if len(text) <= 120 else text[:117] + "..."


def _ok(data: object) -> Response:
    return jsonify(data)


# -- watching -------------------------------------------------------------------------------


@bp.get("/state")
def state() -> Response:
    ctx = table()
    with ctx.lock:
        return _ok(ctx.session.snapshot())


@bp.get("/questions")
def questions() -> Response:
    ctx = table()
    with ctx.lock:
        return _ok({"questions": ctx.session.questions()})


@bp.get("/record")
def record() -> Response:
    ctx = table()
    with ctx.lock:
        text = ctx.session.export_record()
    response = Response(text, mimetype="application/jsonl")
    if request.args.get("download"):
        response.headers["Content-Disposition"] = "attachment; filename=sinbad-game.jsonl"
    return response


@bp.get("/games")
def games() -> Response:
    ctx = table()
    with ctx.lock:
        listed = ctx.session.list_games()
    return _ok({"games": listed, "campaigns": campaigns()})


# -- changing -------------------------------------------------------------------------------


@bp.post("/actions")
def actions() -> Response:
    ctx = changing()
    body = json_body()
    state_id = state_id_of(body)
    if "line" not in body:
        raise ApiError(400, "the body needs \"line\": one game-record line such as "
                       "{\"sinbad\": {\"action\": \"draw\", \"count\": 2}}")
    line = body["line"]
    if not isinstance(line, dict):
        raise ApiError(400, f"\"line\" must be a JSON object, not {_json_kind(line)}")
    with ctx.lock:
        return _ok(ctx.session.apply_line(line, state_id))


@bp.post("/undo")
def undo() -> Response:
    ctx = changing()
    state_id = state_id_of(json_body())
    with ctx.lock:
        return _ok(ctx.session.undo(state_id))


@bp.post("/redo")
def redo() -> Response:
    ctx = changing()
    state_id = state_id_of(json_body())
    with ctx.lock:
        return _ok(ctx.session.redo(state_id))


@bp.post("/jaffar/auto")
def jaffar_auto() -> Response:
    ctx = changing()
    state_id = state_id_of(json_body())
    with ctx.lock:
        return _ok(ctx.session.auto_jaffar(state_id))


@bp.post("/table-events")
def table_events() -> Response:
    """One table event (FORMATS "Table events"), or a declaration the camera cannot see:
    ``{"event": "declare", "action": "draw", "count": 2}``, ``{"event": "declare", "action":
    "pass"}`` or ``{"event": "done"}``. It goes through the same interpreter as the camera's."""
    ctx = changing()
    body = json_body()
    state_id = state_id_of(body)
    event = body.get("event")
    if not isinstance(event, dict):
        raise ApiError(400, "the body needs \"event\": a table event object such as "
                       "{\"event\": \"declare\", \"action\": \"draw\", \"count\": 2}")
    with ctx.lock:
        current = ctx.session.state_id
        if state_id != current:
            raise ApiError(409, f"the table has moved on: state {state_id} is stale, the "
                           f"current one is {current}", state_id=current)
        ctx.session.table_event(event)
        return _ok(ctx.session.snapshot())


@bp.post("/questions/<question_id>")
def answer(question_id: str) -> Response:
    ctx = changing()
    body = json_body()
    state_id = state_id_of(body)
    choice = body.get("choice")
    if not isinstance(choice, str) or not choice:
        raise ApiError(400, "the body needs \"choice\": one of the question's choices")
    with ctx.lock:
        return _ok(ctx.session.answer(question_id, choice, state_id))


@bp.post("/games")
def new_game() -> Response:
    ctx = changing()
    body = json_body()
    name = body.get("campaign")
    offered = {c["file"]: c for c in campaigns()}
    if not isinstance(name, str) or name not in offered:
        choices = ", ".join(sorted(offered)) or "none"
        raise ApiError(400, f"\"campaign\" must name one of the table's campaigns ({choices})")
    title = body.get("title")
    if title is not None and (not isinstance(title, str) or len(title) > 200):
        raise ApiError(400, "\"title\" is a short text")
    path = Path(current_app.config["CAMPAIGNS_DIR"]) / name
    with ctx.lock:
        game_id = ctx.session.new_game(path, title=title or None)
        ctx.session.switch(game_id)
        snapshot = ctx.session.snapshot()
    return _ok({"game_id": game_id, "state": snapshot})


@bp.post("/games/<int:game_id>/switch")
def switch_game(game_id: int) -> Response:
    ctx = changing()
    with ctx.lock:
        known = {g.get("id") for g in ctx.session.list_games()}
        if game_id not in known:
            raise ApiError(404, f"there is no game {game_id} at this table")
        ctx.session.switch(game_id)
        return _ok(ctx.session.snapshot())


# -- campaigns the tablet may start ----------------------------------------------------------


def campaigns() -> list[dict[str, str]]:
    """The campaign files in CAMPAIGNS_DIR (not its scenario files), by file name."""
    folder = Path(current_app.config["CAMPAIGNS_DIR"])
    found: list[dict[str, str]] = []
    if not folder.is_dir():
        return found
    for path in sorted(folder.glob("*.toml")):
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            continue
        if not isinstance(data.get("scenarios"), list):
            continue   # a scenario file, not a campaign
        title = data.get("title")
        found.append({"file": path.name, "id": str(data.get("id", path.stem)),
                      "title": title if isinstance(title, str) and title else path.stem})
    return found
