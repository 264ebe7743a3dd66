"""Putting right what the camera read, during a game, and teaching the deck from it.

The camera keeps a picture of each card it reads (and of each card it sees but cannot read),
and the table's questions about a card carry that picture's id (``"capture"``). When a player
says which card it really is, the game goes on with the right card and the active deck
profile learns the picture, so the camera reads that card right from the next frame on.

``GET /api/captures``: the recent pictures (newest first) and the deck profile corrections go
into. ``GET /api/captures/<id>/image``: one picture (JPEG). ``POST /api/captures/<id>/correct``
with the PIN and ``{"state_id": n, "card": "QS"}`` (optional ``"learn": false`` to put only
the game right, ``"deck": "name"`` to learn into that deck, started when new, when none is
active): answers the new state with ``"correction"`` (what was learnt, what the game did).
Every refusal is a JSON error and changes nothing: 400 a malformed body, card or deck name;
403 the PIN; 404 no such picture; 409 no camera, a stale state, no usable deck profile (the
body says ``"profile": null`` and suggests a deck name) or a deck being taught; 422 no card
index found in the picture.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, jsonify

from companion.cards import Card, CardCodeError
from web.api import changing, json_body, state_id_of
from web.errors import ApiError
from web.teach import EXTENSION, NO_CAMERA

bp = Blueprint("corrections", __name__, url_prefix="/api/captures")


def _teaching() -> Any:
    return current_app.extensions.get(EXTENSION)


@bp.get("")
def captures() -> Response:
    teaching = _teaching()
    if teaching is None:
        return jsonify({"camera": False, "captures": [], "message": NO_CAMERA})
    return jsonify({"camera": True,
                    "captures": [c.to_json() for c in teaching.control.captures()],
                    **teaching.profile_status()})


@bp.get("/<capture_id>/image")
def image(capture_id: str) -> Response:
    teaching = _teaching()
    cap = teaching.control.capture(capture_id) if teaching is not None else None
    if cap is None:
        raise ApiError(404, f"the camera has no picture {capture_id!r}")
    response = Response(cap.jpeg(), mimetype="image/jpeg")
    response.headers["Cache-Control"] = "private, max-age=600"
    return response


@bp.post("/<capture_id>/correct")
def correct(capture_id: str) -> Response:
    ctx = changing()
    body = json_body()
    state_id = state_id_of(body)
    raw = body.get("card")
    if not isinstance(raw, str) or not raw.strip():
        raise ApiError(400, "the body needs \"card\": the card it really is, such as \"QS\"")
    try:
        card = Card.from_code(raw.strip())
    except CardCodeError as exc:
        raise ApiError(400, f"\"card\": {exc}") from None
    learn = body.get("learn", True)
    if not isinstance(learn, bool):
        raise ApiError(400, "\"learn\" is true or false")
    deck = body.get("deck")
    if deck is not None and (not isinstance(deck, str) or not deck.strip()):
        raise ApiError(400, "\"deck\" is a deck's name, such as \"table\"")
    teaching = _teaching()
    if teaching is None:
        raise ApiError(409, NO_CAMERA, camera=False)
    cap = teaching.control.capture(capture_id)
    if cap is None:
        raise ApiError(404, f"the camera has no picture {capture_id!r} (it keeps only the "
                       "most recent ones)")
    with ctx.lock:
        current = ctx.session.state_id
        if state_id != current:
            raise ApiError(409, f"the table has moved on: state {state_id} is stale, the "
                           f"current one is {current}", state_id=current)
        learnt: dict[str, Any] | None = None
        if learn:
            try:
                learnt = teaching.learn(capture_id, card, deck.strip() if deck else None)
            except ValueError as exc:  # vision.teach.CorrectionError / TeachError (a name)
                status = int(getattr(exc, "status", 400))
                raise ApiError(status, str(exc), **getattr(exc, "extra", {})) from None
        snapshot = ctx.session.correct_reading(state_id, card, cap.zone, cap.card, capture_id)
        outcome = snapshot.pop("outcome")
        note = (f"Learned: the {card.name}" if learnt is not None
                else f"Put right: the {card.name}")
        ctx.session.say(note + ".")
        snapshot = ctx.session.snapshot()
    correction = {"capture": capture_id, "card": card.code, "card_name": card.name,
                  "read": cap.card, "zone": cap.zone, "game": outcome,
                  "learned": learnt is not None, "note": note}
    if learnt is not None:
        correction.update(deck=learnt["deck"], profile=learnt["profile"],
                          created=learnt["created"], samples=learnt["samples"])
    return jsonify({**snapshot, "correction": correction})
