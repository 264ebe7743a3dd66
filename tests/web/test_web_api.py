"""The table's HTTP API (FORMATS.md "The table's HTTP API") against a real session.

Every status the contract names (200, 400, 403, 409, 422), and the promise behind them:
nothing changes unless the answer is 200. Garbage of every kind gets a 4xx JSON reason.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from web_helpers import PIN, TINY_WIN, make_app
from werkzeug.test import TestResponse

from companion.record import replay
from companion.table.session import TableSession
from web import create_app

REPLAY_KEYS = ("turn", "sleep", "scoreboard", "result", "scenario", "challenge",
               "challenge_turn", "paths", "bank", "hand", "draw_pile")


def post(client: FlaskClient, url: str, body: object, pin: str | None = PIN) -> TestResponse:
    headers = {"X-Table-PIN": pin} if pin is not None else {}
    return client.post(url, json=body, headers=headers)


def current(client: FlaskClient) -> dict[str, Any]:
    response = client.get("/api/state")
    assert response.status_code == 200
    data: dict[str, Any] = response.get_json()
    return data


def act(client: FlaskClient, line: dict[str, Any]) -> dict[str, Any]:
    response = post(client, "/api/actions", {"state_id": current(client)["state_id"],
                                             "line": line})
    assert response.status_code == 200, response.get_json()
    data: dict[str, Any] = response.get_json()
    return data


def assert_refused(response: TestResponse, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/json"
    body: dict[str, Any] = response.get_json()
    assert isinstance(body.get("error"), str) and body["error"]
    return body


# -- GET /api/state -------------------------------------------------------------------------


def test_state_has_the_replay_keys_the_state_id_and_the_game(client: FlaskClient) -> None:
    data = current(client)
    for key in REPLAY_KEYS:
        assert key in data
    assert data["game"] == "sinbad"
    assert isinstance(data["state_id"], int)
    assert data["sleep"] == 10 and data["turn"] == 0 and data["result"] is None
    assert data["view"]["phase"] == "jaffar"


def test_state_after_the_midgame_record_matches_the_worked_example(
        client: FlaskClient, examples_dir: Path) -> None:
    expected = json.loads((examples_dir / "tiny-midgame.expected.json").read_text())
    for line in TINY_WIN[:6]:
        act(client, line)
    data = current(client)
    assert {k: data[k] for k in expected} == expected


def test_watching_needs_no_pin(client: FlaskClient) -> None:
    assert client.get("/api/state").status_code == 200
    assert client.get("/api/games").status_code == 200
    assert client.get("/api/questions").status_code == 200
    assert client.get("/api/record").status_code == 200
    assert client.get("/").status_code == 200


# -- POST /api/actions: 200 -----------------------------------------------------------------


def test_a_whole_game_played_through_the_api(client: FlaskClient, examples_dir: Path,
                                             tmp_path: Path) -> None:
    ids = [current(client)["state_id"]]
    for line in TINY_WIN:
        data = act(client, line)
        ids.append(data["state_id"])
        assert data == current(client)          # the answer is the new state
    assert ids == sorted(set(ids))               # state ids only grow
    assert data["result"] == "sinbad" and data["view"]["phase"] == "over"
    expected = json.loads((examples_dir / "tiny-win.expected.json").read_text())
    assert {k: data[k] for k in expected} == expected
    # The exported record replays to the same public state.
    record = tmp_path / "game.jsonl"
    record.write_text(client.get("/api/record").get_data(as_text=True))
    game, state = replay(record)
    assert {k: game.public(state)[k] for k in REPLAY_KEYS} == {k: data[k] for k in REPLAY_KEYS}


def test_after_the_end_every_line_is_refused(client: FlaskClient) -> None:
    for line in TINY_WIN:
        act(client, line)
    before = current(client)
    body = assert_refused(post(client, "/api/actions",
                               {"state_id": before["state_id"], "line": {"jaffar": ["8S"]}}), 422)
    assert body["ruling"] == "S12"
    assert current(client) == before


# -- 403 ------------------------------------------------------------------------------------


@pytest.mark.parametrize("pin", [None, "", "0000", PIN + "0", " "])
def test_a_change_without_the_right_pin_is_forbidden(client: FlaskClient,
                                                     pin: str | None) -> None:
    before = current(client)
    body = assert_refused(post(client, "/api/actions", {"state_id": before["state_id"],
                                                        "line": TINY_WIN[0]}, pin=pin), 403)
    assert "PIN" in body["error"]
    assert current(client) == before


@pytest.mark.parametrize("url", ["/api/undo", "/api/redo", "/api/jaffar/auto",
                                 "/api/questions/q1", "/api/games", "/api/games/1/switch"])
def test_every_changing_endpoint_needs_the_pin(client: FlaskClient, url: str) -> None:
    before = current(client)
    assert_refused(post(client, url, {"state_id": before["state_id"]}, pin="wrong"), 403)
    assert_refused(post(client, url, {"state_id": before["state_id"]}, pin=None), 403)
    assert current(client) == before


def test_guessing_the_pin_locks_that_address_out_for_a_while(
        session: TableSession, examples_dir: Path) -> None:
    app = make_app(session, examples_dir, PIN_TRIES=3, PIN_LOCKOUT=0.5)
    guesser = app.test_client()
    guesser.environ_base["REMOTE_ADDR"] = "10.0.0.66"
    tablet = app.test_client()
    tablet.environ_base["REMOTE_ADDR"] = "10.0.0.7"
    state_id = current(tablet)["state_id"]
    body = {"state_id": state_id, "line": TINY_WIN[0]}
    for guess in ("0000", "0001", "0002"):
        assert_refused(post(guesser, "/api/actions", body, pin=guess), 403)
    # Locked: even the right PIN is not looked at, and the answer says how long to wait.
    locked = post(guesser, "/api/actions", body)
    reply = assert_refused(locked, 429)
    assert "wait" in reply["error"] and int(locked.headers["Retry-After"]) >= 0
    assert current(tablet)["state_id"] == state_id
    # Another address is not punished for it.
    assert post(tablet, "/api/actions", body).status_code == 200
    time.sleep(0.6)
    state_id = current(tablet)["state_id"]
    assert post(guesser, "/api/actions", {"state_id": state_id,
                                          "line": TINY_WIN[1]}).status_code == 200


def test_the_pin_is_checked_before_the_body(client: FlaskClient) -> None:
    # Someone without the PIN learns nothing from how the table reads their body.
    response = client.post("/api/actions", data=b"not json")
    assert_refused(response, 403)


# -- 400 ------------------------------------------------------------------------------------


GARBAGE_BODIES: list[tuple[str, bytes]] = [
    ("empty", b""),
    ("whitespace", b"   \n"),
    ("not JSON", b"draw two please"),
    ("truncated JSON", b'{"state_id": 1, "line": {"jaffar": ['),
    ("a list", b"[1, 2, 3]"),
    ("a string", b'"hello"'),
    ("null", b"null"),
    ("NaN", b'{"state_id": NaN, "line": {"jaffar": ["3S"]}}'),
    ("bad UTF-8", b'{"state_id": 1, "line": "\xff\xfe"}'),
    ("deep nesting", b"[" * 100_000 + b"]" * 100_000),
    ("huge number", b'{"state_id": ' + b"9" * 5000 + b', "line": {}}'),
]


@pytest.mark.parametrize(("name", "raw"), GARBAGE_BODIES, ids=[n for n, _ in GARBAGE_BODIES])
def test_a_body_that_is_not_a_json_object_is_malformed(client: FlaskClient, name: str,
                                                       raw: bytes) -> None:
    before = current(client)
    response = client.post("/api/actions", data=raw, headers={"X-Table-PIN": PIN,
                                                               "Content-Type": "application/json"})
    status = 413 if len(raw) > 64 * 1024 else 400
    assert_refused(response, status)
    assert current(client) == before


def _bodies(state_id: int) -> list[tuple[str, object, str]]:
    """(case, body, a word the reason must contain)."""
    line = TINY_WIN[0]
    return [
        ("no state_id", {"line": line}, "state_id"),
        ("state_id a string", {"state_id": str(state_id), "line": line}, "state_id"),
        ("state_id a float", {"state_id": state_id + 0.5, "line": line}, "state_id"),
        ("state_id a boolean", {"state_id": True, "line": line}, "state_id"),
        ("state_id negative", {"state_id": -1, "line": line}, "state_id"),
        ("state_id null", {"state_id": None, "line": line}, "state_id"),
        ("no line", {"state_id": state_id}, "line"),
        ("line a list", {"state_id": state_id, "line": [line]}, "line"),
        ("line a string", {"state_id": state_id, "line": json.dumps(line)}, "line"),
        ("both players", {"state_id": state_id, "line": {"jaffar": [], "sinbad": {}}},
         "exactly one"),
        ("neither player", {"state_id": state_id, "line": {"aladdin": []}}, "exactly one"),
        ("unknown action", {"state_id": state_id, "line": {"sinbad": {"action": "fly"}}},
         "action"),
        ("not a card", {"state_id": state_id, "line": {"jaffar": ["1X"]}}, "card"),
        ("jaffar not a list", {"state_id": state_id, "line": {"jaffar": "3S"}}, "list"),
        ("draw three", {"state_id": state_id,
                        "line": {"sinbad": {"action": "draw", "count": 3}}}, "draw"),
    ]


@pytest.mark.parametrize("case", [c for c, _, _ in _bodies(0)])
def test_a_malformed_body_is_refused_with_the_reason(client: FlaskClient, case: str) -> None:
    before = current(client)
    body = next(b for c, b, _ in _bodies(before["state_id"]) if c == case)
    word = next(w for c, _, w in _bodies(before["state_id"]) if c == case)
    reply = assert_refused(post(client, "/api/actions", body), 400)
    assert word.lower() in reply["error"].lower()
    assert current(client) == before


def test_a_body_too_large_is_refused(client: FlaskClient) -> None:
    before = current(client)
    padding = "x" * (200 * 1024)
    reply = assert_refused(post(client, "/api/actions", {"state_id": before["state_id"],
                                                         "line": TINY_WIN[0], "pad": padding}),
                           413)
    assert "large" in reply["error"]
    assert current(client) == before


# -- 409 ------------------------------------------------------------------------------------


def test_a_stale_state_id_is_refused_and_names_the_current_one(client: FlaskClient) -> None:
    old = current(client)["state_id"]
    act(client, TINY_WIN[0])
    now = current(client)
    body = assert_refused(post(client, "/api/actions", {"state_id": old, "line": TINY_WIN[1]}),
                          409)
    assert body["state_id"] == now["state_id"] != old
    assert current(client) == now
    # A state_id from the future is just as stale.
    assert_refused(post(client, "/api/actions", {"state_id": now["state_id"] + 5,
                                                 "line": TINY_WIN[1]}), 409)
    assert current(client) == now


# -- 422 ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("line", "ruling"), [
    ({"sinbad": {"action": "draw", "count": 2}}, "S4"),      # Jaffar plays first
    ({"jaffar": ["3S", "4S"]}, "S7"),                        # Losing: one card
    ({"jaffar": []}, "S15e"),                                # no skip is due
])
def test_a_line_the_rules_refuse_names_the_ruling(client: FlaskClient, line: dict[str, Any],
                                                  ruling: str) -> None:
    before = current(client)
    body = assert_refused(post(client, "/api/actions", {"state_id": before["state_id"],
                                                        "line": line}), 422)
    assert body["ruling"] == ruling
    assert isinstance(body["reason"], str) and body["reason"]
    assert current(client) == before


def test_sinbad_must_play_the_budge_card_when_a_challenge_begins(client: FlaskClient) -> None:
    act(client, TINY_WIN[0])
    before = current(client)
    body = assert_refused(post(client, "/api/actions", {
        "state_id": before["state_id"], "line": {"sinbad": {"action": "draw", "count": 2}}}), 422)
    assert body["ruling"] == "S8a"
    assert current(client) == before


# -- undo and redo --------------------------------------------------------------------------


def test_undo_restores_the_state_and_redo_brings_it_back(client: FlaskClient) -> None:
    act(client, TINY_WIN[0])
    before = current(client)
    after = act(client, TINY_WIN[1])
    assert after["paths"]["muscle"]["have"] == 1

    reply = post(client, "/api/undo", {"state_id": after["state_id"]})
    assert reply.status_code == 200
    undone = reply.get_json()
    assert undone["state_id"] > after["state_id"]            # undo appends to the journal
    assert {k: undone[k] for k in REPLAY_KEYS} == {k: before[k] for k in REPLAY_KEYS}
    assert undone["view"]["can_redo"] is True

    # Undo is a change like any other: stale and PIN-less ones are refused.
    assert_refused(post(client, "/api/undo", {"state_id": after["state_id"]}), 409)
    assert_refused(post(client, "/api/undo", {"state_id": undone["state_id"]}, pin=None), 403)
    assert_refused(post(client, "/api/undo", {}), 400)

    reply = post(client, "/api/redo", {"state_id": undone["state_id"]})
    assert reply.status_code == 200
    redone = reply.get_json()
    assert {k: redone[k] for k in REPLAY_KEYS} == {k: after[k] for k in REPLAY_KEYS}


def test_correcting_a_card_is_undo_then_the_right_line(client: FlaskClient) -> None:
    act(client, TINY_WIN[0])
    wrong = act(client, {"sinbad": {"budge": "nudge", "action": "play",
                                    "cards": [{"card": "QH", "path": "friends"}]}})
    undone = post(client, "/api/undo", {"state_id": wrong["state_id"]}).get_json()
    right = act(client, TINY_WIN[1])
    assert right["paths"] == {"muscle": {"need": 2, "have": 1}, "friends": {"need": 3, "have": 0}}
    assert right["view"]["can_redo"] is False                  # a new line clears redo
    assert right["state_id"] > undone["state_id"]


def test_nothing_to_undo_or_redo_is_a_clear_refusal(client: FlaskClient) -> None:
    state_id = current(client)["state_id"]
    assert_refused(post(client, "/api/undo", {"state_id": state_id}), 422)
    assert_refused(post(client, "/api/redo", {"state_id": state_id}), 422)
    assert current(client)["state_id"] == state_id


# -- Jaffar plays for me --------------------------------------------------------------------


def test_auto_jaffar_plays_his_phase_from_the_virtual_deck(client: FlaskClient) -> None:
    before = current(client)
    reply = post(client, "/api/jaffar/auto", {"state_id": before["state_id"]})
    assert reply.status_code == 200, reply.get_json()
    data = reply.get_json()
    assert data["view"]["phase"] == "sinbad"
    assert len(data["jaffar_last"]) == 1 and data["jaffar_deck"] == 51
    # In Sinbad's phase Jaffar cannot play.
    body = assert_refused(post(client, "/api/jaffar/auto", {"state_id": data["state_id"]}), 422)
    assert body["ruling"] == "S4"
    assert_refused(post(client, "/api/jaffar/auto", {"state_id": before["state_id"]}), 409)


# -- questions ------------------------------------------------------------------------------


def test_answering_a_question_applies_its_line(client: FlaskClient,
                                               session: TableSession) -> None:
    session.ask({"id": "seen", "text": "Did Jaffar play the 3 of spades?",
                 "choices": ["yes", "no"], "lines": {"yes": {"jaffar": ["3S"]}}})
    listed = client.get("/api/questions").get_json()["questions"]
    assert [q["id"] for q in listed] == ["seen"]
    assert current(client)["view"]["questions"][0]["choices"] == ["yes", "no"]
    state_id = current(client)["state_id"]

    assert_refused(post(client, "/api/questions/seen", {"state_id": state_id,
                                                        "choice": "maybe"}), 400)
    assert_refused(post(client, "/api/questions/seen", {"state_id": state_id}), 400)
    assert_refused(post(client, "/api/questions/nope", {"state_id": state_id,
                                                        "choice": "yes"}), 404)
    assert current(client)["state_id"] == state_id

    reply = post(client, "/api/questions/seen", {"state_id": state_id, "choice": "yes"})
    assert reply.status_code == 200, reply.get_json()
    data = reply.get_json()
    assert data["jaffar_last"] == ["3S"] and data["view"]["questions"] == []


# -- games and the record -------------------------------------------------------------------


def test_games_can_be_listed_started_and_switched(client: FlaskClient) -> None:
    act(client, TINY_WIN[0])
    listing = client.get("/api/games").get_json()
    first = listing["games"][0]["id"]
    assert [c["file"] for c in listing["campaigns"]] == ["tiny-campaign.toml"]

    reply = post(client, "/api/games", {"campaign": "tiny-campaign.toml", "title": "Again"})
    assert reply.status_code == 200, reply.get_json()
    new = reply.get_json()
    assert new["game_id"] != first and new["state"]["turn"] == 0
    assert current(client)["turn"] == 0

    reply = post(client, f"/api/games/{first}/switch", {})
    assert reply.status_code == 200
    assert current(client)["turn"] == 1 and current(client)["jaffar_last"] == ["3S"]
    assert len(client.get("/api/games").get_json()["games"]) == 2


@pytest.mark.parametrize("campaign", ["../tiny-campaign.toml", "/etc/passwd", "tiny-gate.toml",
                                      "", None, 5])
def test_a_new_game_only_from_the_tables_campaigns(client: FlaskClient,
                                                   campaign: object) -> None:
    before = current(client)
    assert_refused(post(client, "/api/games", {"campaign": campaign}), 400)
    assert current(client) == before


def test_switching_to_an_unknown_game_is_not_found(client: FlaskClient) -> None:
    assert_refused(post(client, "/api/games/999/switch", {}), 404)


def test_the_record_is_a_game_record(client: FlaskClient) -> None:
    for line in TINY_WIN[:3]:
        act(client, line)
    response = client.get("/api/record?download=1")
    assert "attachment" in response.headers["Content-Disposition"]
    lines = [json.loads(x) for x in response.get_data(as_text=True).splitlines()]
    assert lines[0]["game"] == "sinbad" and lines[0]["campaign"].endswith("tiny-campaign.toml")
    assert lines[1:] == TINY_WIN[:3]


# -- garbage of every other kind ------------------------------------------------------------


@pytest.mark.parametrize(("method", "url", "status"), [
    ("GET", "/api/nothing-here", 404),
    ("GET", "/favicon.php", 404),
    ("GET", "/api/actions", 405),
    ("PUT", "/api/state", 405),
    ("DELETE", "/api/undo", 405),
    ("POST", "/api/state", 405),
    ("POST", "/api/games/not-a-number/switch", 404),
])
def test_unknown_routes_and_methods_answer_json(client: FlaskClient, method: str, url: str,
                                                status: int) -> None:
    response = client.open(url, method=method, headers={"X-Table-PIN": PIN})
    assert_refused(response, status)


def test_create_app_refuses_an_empty_pin(session: TableSession) -> None:
    with pytest.raises(ValueError):
        create_app(session, pin="")


_json = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 10**6) | st.floats(allow_nan=False)
    | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["state_id", "line", "jaffar", "sinbad", "action", "cards", "card",
                         "path", "count", "give", "take", "budge", "choice", "x"]),
        inner, max_size=4),
    max_leaves=12)


@settings(max_examples=150, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=_json, url=st.sampled_from(["/api/actions", "/api/undo", "/api/redo",
                                        "/api/jaffar/auto", "/api/questions/q1", "/api/games"]))
def test_random_json_never_gets_a_server_error(session: TableSession, examples_dir: Path,
                                               body: object, url: str) -> None:
    client = make_app(session, examples_dir).test_client()
    response = post(client, url, body)
    assert response.status_code < 500, response.get_data(as_text=True)
    if response.status_code != 200:
        assert isinstance(response.get_json()["error"], str)


def test_table_events_go_through_the_interpreter(client: FlaskClient) -> None:
    act(client, {"jaffar": ["3S"]})
    sid = current(client)["state_id"]
    seen = post(client, "/api/table-events", {"state_id": sid, "event": {
        "t": 1.0, "event": "placed", "code": "budge:nudge", "zone": "budge"}})
    assert seen.status_code == 200
    sid = seen.get_json()["state_id"]
    declared = post(client, "/api/table-events", {"state_id": sid, "event": {
        "t": 2.0, "event": "declare", "action": "draw", "count": 2}})
    assert declared.status_code == 200
    state = current(client)
    assert state["hand"] == 10 and state["challenge"] == "gate" and state["phase"] == "jaffar"


def test_table_events_are_checked_like_every_change(client: FlaskClient) -> None:
    sid = current(client)["state_id"]
    good = {"state_id": sid, "event": {"event": "done"}}
    assert post(client, "/api/table-events", good, pin="0000").status_code == 403
    assert post(client, "/api/table-events", {"state_id": sid + 5, "event": {"event": "done"}}
                ).status_code == 409
    for bad in ({"state_id": sid}, {"state_id": sid, "event": "placed"},
                {"state_id": sid, "event": {"event": "placed"}}):
        response = post(client, "/api/table-events", bad)
        assert response.status_code == 400, response.get_json()
        assert response.get_json()["error"]
    assert current(client)["state_id"] == sid
