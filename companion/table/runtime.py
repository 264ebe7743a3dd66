"""What ``companion play`` runs: the session, the web server, and one feeder of the game.

Feeders: the bundled demo (a scripted game played at a watchable pace), a file of table
events fed to the interpreter in real time, or a camera source (through ``vision``), which
produces the same table events for the same interpreter. ``--manual`` has no feeder: the
tablet and the HTTP API drive the game.
"""

from __future__ import annotations

import json
import logging
import secrets
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.table.errors import TableError


@dataclass(frozen=True)
class PlayOptions:
    mode: str                      # demo, manual, events, camera, video, url
    campaign: Path | None
    data: Path
    host: str = "0.0.0.0"
    port: int = 8765
    pin: str | None = None
    game: int | None = None
    new: bool = False
    seed: int | None = None
    speed: float = 1.0
    fast: bool = False
    events: Path | None = None
    camera: int | None = None
    video: Path | None = None
    url: str | None = None
    qr: bool = True


def lan_address() -> str:
    """This machine's address on the LAN (what a tablet types), or 127.0.0.1."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        # Connecting a UDP socket sends nothing; it only picks the outgoing interface.
        probe.connect(("10.255.255.255", 1))
        address = str(probe.getsockname()[0])
    except OSError:
        address = "127.0.0.1"
    finally:
        probe.close()
    return address


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _err(text: str) -> None:
    print(f"companion play: {text}", file=sys.stderr)


def play(opts: PlayOptions) -> int:
    from companion.table.commands import default_campaign
    from companion.table.session import TableSession

    try:
        from web import create_app
        from web.server import TableServer
    except ImportError as exc:
        _err(f"the tablet web app is not available in this build ({exc}); "
             "`companion play` needs the web package (web.create_app)")
        return 1

    data = opts.data
    campaign = opts.campaign
    if campaign is None and (opts.mode == "demo" or opts.new):
        campaign = default_campaign()
        if campaign is None:
            _err("no campaign file found: pass --campaign FILE")
            return 2
    if opts.mode == "demo":
        data = data / "demo"          # the demo's games never mix with the table's own
    try:
        if opts.mode == "demo":
            session = TableSession.open(data, campaign, new=True, seed=opts.seed,
                                        title="Demo")
        else:
            session = TableSession.open(data, campaign, game_id=opts.game, new=opts.new,
                                        seed=opts.seed)
    except TableError as exc:
        if campaign is None and "no saved game" in exc.reason:
            fallback = default_campaign()
            if fallback is None:
                _err(exc.reason)
                return 2
            try:
                session = TableSession.open(data, fallback, seed=opts.seed)
            except TableError as exc2:
                _err(exc2.reason)
                return 1
        else:
            _err(exc.reason)
            return 1

    # One log line per request would bury the address and the PIN (tablets poll and stream).
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    pin = opts.pin or f"{secrets.randbelow(10_000):04d}"
    try:
        app = create_app(session, pin=pin)
        server = TableServer(app, opts.host, opts.port)
    except (OSError, SystemExit) as exc:
        # Werkzeug reports a busy port itself and exits; say what to do about it.
        why = exc.strerror if isinstance(exc, OSError) else "the address is in use"
        _err(f"cannot listen on {opts.host}:{opts.port} ({why}); "
             "is another table running? try --port")
        session.close()
        return 1
    control = _enable_teaching(app, data) if opts.mode in ("camera", "video", "url") else None
    host = lan_address() if opts.host in ("0.0.0.0", "") else opts.host
    url = f"http://{host}:{server.port}/"
    _announce(session, url, pin, opts)

    stop = threading.Event()
    feeder = _feeder(session, opts, stop, control)
    worker: threading.Thread | None = None
    if feeder is not None:
        worker = threading.Thread(target=_guarded(feeder, stop), name="table-feeder",
                                  daemon=True)
        worker.start()
    if threading.current_thread() is threading.main_thread():
        # `kill PID` stops the table as cleanly as Ctrl-C (kill -9 needs nothing: the
        # journal is already on disk).
        signal.signal(signal.SIGTERM, _interrupt)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("stopping the table...", file=sys.stderr)
    finally:
        stop.set()
        if worker is not None:
            worker.join(timeout=5)
        session.close()
    return 0


def _announce(session: Any, url: str, pin: str, opts: PlayOptions) -> None:
    snap = session.snapshot()
    print(f"Table companion: game {session.game_id} \"{session.title}\" "
          f"(turn {snap['turn']}, state {snap['state_id']}), journal in {opts.data}")
    print(f"Tablet: open {url}")
    print(f"Table PIN: {pin}")
    if opts.qr:
        try:
            import segno

            segno.make(url, error="m").terminal(compact=True)
        except Exception as exc:       # a terminal that cannot show it is no reason to stop
            print(f"(no QR code: {exc})")
    what = {
        "demo": f"Playing the bundled demo at speed {opts.speed:g} (Ctrl-C to stop).",
        "manual": "Manual table: the tablet and the HTTP API drive the game.",
        "events": f"Feeding table events from {opts.events}"
                  + (" as fast as possible." if opts.fast else " in real time."),
    }.get(opts.mode, f"Camera source ({opts.mode}): its table events feed the same interpreter "
                     "as --events does.")
    print(what)
    sys.stdout.flush()


def _guarded(feeder: Callable[[], None], stop: threading.Event) -> Callable[[], None]:
    def run() -> None:
        try:
            feeder()
        except TableError as exc:
            _err(f"the feeder stopped: {exc.reason}")
        except Exception as exc:       # the server keeps running for the tablet
            _err(f"the feeder stopped: {type(exc).__name__}: {exc}")
    return run


def _enable_teaching(app: Any, data: Path) -> Any:
    """The tablet's "Teach this deck" on the camera loop's frames; its WatchControl, or None
    when the vision side is missing (the camera feeder then says why)."""
    import importlib

    try:
        # By name, like the camera feeder: the table's typed core does not import vision.
        teach = importlib.import_module("vision.teach")
        watch = importlib.import_module("vision.watch")
        from web.teach import enable
    except ImportError:
        return None
    control = watch.WatchControl()
    enable(app, teach.CameraTeaching(control, data / "decks"))
    return control


def _feeder(session: Any, opts: PlayOptions, stop: threading.Event, control: Any = None
            ) -> Callable[[], None] | None:
    if opts.mode == "manual":
        return None
    if opts.mode == "demo":
        from companion.table.demo import DemoConfig, run_demo

        return lambda: run_demo(session, stop, DemoConfig(speed=opts.speed, seed=opts.seed))
    if opts.mode == "events":
        assert opts.events is not None
        path = opts.events
        return lambda: feed_events_file(session, path, stop, fast=opts.fast,
                                        speed=opts.speed)
    return lambda: feed_camera(session, opts, stop, control)


def read_events(path: Path) -> list[dict[str, Any]]:
    """The events of a table-events file; raises ValueError naming the bad line."""
    out: list[dict[str, Any]] = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        try:
            event = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path} line {number}: not valid JSON ({exc.msg})") from None
        if not isinstance(event, dict):
            raise ValueError(f"{path} line {number}: an event is a JSON object")
        out.append(event)
    return out


def feed_events_file(session: Any, path: Path, stop: threading.Event, *, fast: bool = False,
                     speed: float = 1.0) -> None:
    """Feed a table-events file to the session's interpreter, waiting for each event's
    time unless ``fast``; the interpreter's clock is the events' own ``t``."""
    events = read_events(path)
    started = time.monotonic()
    interpreter = session.interpreter
    for event in events:
        if stop.is_set():
            return
        t = event.get("t")
        if not fast and isinstance(t, (int, float)):
            while not stop.is_set():
                now = (time.monotonic() - started) * speed
                if now >= t:
                    break
                # Let the interpreter's settle timers run while we wait.
                interpreter.advance(now)
                stop.wait(min(0.1, (t - now) / speed))
        try:
            session.table_event(event)
        except TableError as exc:
            session.say(f"Table event ignored: {exc.reason}")
    interpreter.flush()


def _camera_events(opts: PlayOptions, stop: threading.Event, control: Any = None,
                   say: Callable[[str], None] | None = None) -> Iterator[dict[str, Any]]:
    """Table events from ``vision.watch`` (the vision side's frame sources), read with the
    deck profile last taught on the tablet (DATA/decks) if there is one."""
    import importlib

    try:
        watch = importlib.import_module("vision.watch")
        teach = importlib.import_module("vision.teach")
    except ImportError as exc:
        raise TableError(f"the camera path cannot start: {exc}. Camera, video and stream "
                         "sources feed the same table interpreter as --events FILE.") from None
    source: object = (opts.camera if opts.camera is not None
                      else str(opts.video) if opts.video is not None else opts.url)
    deck, warning = teach.active_profile(opts.data / "decks")
    if warning and say is not None:
        say(warning)
    config = watch.WatchConfig(deck=str(deck)) if deck is not None else None
    produced: Iterator[dict[str, Any]] = watch.watch_events(source, stop=stop, config=config,
                                                            control=control)
    return produced


def feed_camera(session: Any, opts: PlayOptions, stop: threading.Event,
                control: Any = None) -> None:
    try:
        for event in _camera_events(opts, stop, control, session.say):
            if stop.is_set():
                return
            try:
                session.table_event(event)
            except TableError as exc:
                session.say(f"Table event ignored: {exc.reason}")
    except TableError as exc:
        _err(exc.reason)
        session.say(exc.reason)
        return
    except (ValueError, RuntimeError, OSError) as exc:
        # The vision side's errors (a camera that will not open, a broken board layout, no
        # recognizer) say what to try; the tablet keeps working without the camera.
        message = f"The camera stopped: {exc}"
        _err(message)
        session.say(message)
        return
    session.interpreter.flush()
