"""The JSON API under ``/api`` (documented in ``web/openapi.json``).

Reading is open; everything that changes the table goes through `protected` (PIN once
per browser + CSRF token). Input is checked in `web.validate` (400 with the field and
value); a command the hub refuses (`firmware.hub.CommandError`) is a 409 with its words.
What only some hubs can do (a camera, games, the advisor, questions) is asked with
``isinstance`` on `firmware.hub`'s capability protocols before it is called, so a hub
without it gets a 404 or 501 that says so, and mypy knows the method's types after.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, jsonify, request, stream_with_context

from firmware.hub import AdvisorHub, CameraHub, CommandError, GamesHub, OverlayHub, QuestionHub
from referee.announcements import said, translated
from web import i18n, validate
from web.auth import Guard, protected
from web.context import context, language, tr
from web.errors import ApiError
from web.history import History
from web.hub_extras import offered
from web.live import resume_from, stream

blueprint = Blueprint("api", __name__, url_prefix="/api")
OPENAPI = Path(__file__).resolve().parent / "openapi.json"
#: Frames per second of the camera stream (a Pi camera read at 4-5 fps anyway).
CAMERA_FPS = 5.0


def _guard() -> Guard:
    return context().guard


def _command(call: Callable[[], Any]) -> Any:
    """Run a hub command; its refusal is a 409 with the hub's words."""
    try:
        return call()
    except CommandError as exc:
        raise ApiError(409, translated(exc.message, tr())) from None


def _refused(status: int, text: str) -> ApiError:
    """The API's own refusal (a `said` message) in the reader's language, as a refused
    command's (issue 17)."""
    return ApiError(status, translated(text, tr()))


def _gone() -> Callable[[], bool]:
    """Whether this request's browser has gone. Waitress tells (it reads ahead on the
    connection, see `web.server`), so a closed tab frees its stream's slot and thread
    within a tick instead of at the next keep-alive write; other servers never do."""
    check = request.environ.get("waitress.client_disconnected")
    return check if callable(check) else lambda: False


def _no_store(response: Response) -> Response:
    response.headers["Cache-Control"] = "no-store"
    return response


# ------------------------------------------------------------------ reading


@blueprint.get("/state")
def state() -> Any:
    return _no_store(jsonify(context().hub.state()))


@blueprint.get("/events")
def events() -> Response:
    """The live stream; ``Last-Event-ID`` (or ``?since=``) resumes after that event."""
    ctx = context()
    field, asked = "Last-Event-ID", request.headers.get("Last-Event-ID")
    if not asked:
        field, asked = "since", request.args.get("since")
    since: int | None = None
    if asked is not None:
        since = resume_from(asked, ctx.epoch)
        if since is None:
            raise _refused(
                400,
                said(
                    "%(field)s must be an event id like %(example)s, not %(given)s",
                    field=field,  # the header's or the parameter's name, as sent
                    example="'1a2b3c.42'",
                    given=validate.shown(asked),
                ),
            )
    if not ctx.open_stream():
        raise _refused(503, said("too many live pages open; this one will retry"))
    body = stream(ctx.hub.bus, ctx.cache, tr(), since, ctx.stopping, epoch=ctx.epoch, gone=_gone())

    def counted() -> Iterator[str]:
        try:
            yield from body
        finally:
            ctx.close_stream()

    response = Response(stream_with_context(counted()), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"
    return response


@blueprint.get("/majorities")
def majorities() -> Any:
    """Every unit, most contested first; ``?territory=N`` for the unit holding N."""
    hub = context().hub
    asked = request.args.get("territory")
    if asked is not None:
        number = validate.territory(asked)
        return jsonify(_command(lambda: hub.majority(number)))
    return jsonify(_command(hub.majorities))


@blueprint.get("/majority/<territory>")
def majority(territory: str) -> Any:
    number = validate.territory(territory)
    return jsonify(_command(lambda: context().hub.majority(number)))


@blueprint.get("/display.png")
def display_png() -> Response:
    try:
        picture = context().hub.display_png()
    except CommandError as exc:  # an appliance without a display renderer
        raise _refused(404, exc.message) from None
    return _no_store(Response(picture, mimetype="image/png"))


@blueprint.get("/session")
def session_info() -> Any:
    """What this browser may do, its CSRF token and language, and the hub's extras."""
    ctx = context()
    return _no_store(
        jsonify(
            trusted=ctx.guard.trusted(),
            csrf=ctx.guard.csrf_token(),
            lang=language(),
            languages=i18n.LANGUAGES,
            extras=offered(ctx.hub),
            history=ctx.history is not None,
        )
    )


@blueprint.get("/i18n")
def messages() -> Any:
    """The page's words in this browser's language (msgid -> text) for the script."""
    return jsonify(lang=language(), messages=i18n.messages(language()))


@blueprint.get("/openapi.json")
def openapi() -> Response:
    return Response(OPENAPI.read_bytes(), mimetype="application/json")


# ------------------------------------------------------------------ changing


@blueprint.post("/pin")
def pin() -> Any:
    guard = _guard()
    guard.check_request(need_pin=False)
    guard.enter(validate.json_body().get("pin"))
    return jsonify(trusted=True)


@blueprint.post("/correction")
@protected(_guard)
def correction() -> Any:
    body = validate.json_body()
    hub = context().hub
    seats = [seat for p in hub.state()["players"] if (seat := p["seat"])]
    zone = validate.zone(body.get("zone"), seats)
    counts = validate.counts(body.get("counts"))
    return jsonify(_command(lambda: hub.correct(zone, counts)))


@blueprint.post("/undo")
@protected(_guard)
def undo() -> Any:
    validate.json_body()
    return jsonify(_command(context().hub.undo))


@blueprint.post("/confirm")
@protected(_guard)
def confirm() -> Any:
    validate.json_body()
    return jsonify(_command(context().hub.confirm))


@blueprint.post("/answer")
@protected(_guard)
def answer() -> Any:
    """The players answer the referee's question about a doubtful reading."""
    given = validate.answer(validate.json_body().get("answer"))
    hub = context().hub
    if not isinstance(hub, QuestionHub):
        raise _refused(501, said("this appliance asks no questions"))
    return jsonify(_command(lambda: hub.answer(given)))


@blueprint.post("/button/<name>")
@protected(_guard)
def button(name: str) -> Any:
    name = validate.button(name)
    long = validate.flag(validate.json_body().get("long"), "long")
    return jsonify(_command(lambda: context().hub.press(name, long)))


@blueprint.post("/game")
@protected(_guard)
def start_game() -> Any:
    players = validate.players(validate.json_body().get("players"))
    hub = context().hub
    if not isinstance(hub, GamesHub):
        raise _refused(501, said("this appliance cannot start games from the page"))
    return jsonify(_command(lambda: hub.new_game(players)))


@blueprint.post("/game/end")
@protected(_guard)
def end_game() -> Any:
    validate.json_body()
    hub = context().hub
    if not isinstance(hub, GamesHub):
        raise _refused(501, said("this appliance cannot end games from the page"))
    return jsonify(_command(hub.end_game))


# ------------------------------------------------------------------ advisor


def _advisor() -> AdvisorHub:
    hub = context().hub
    if not isinstance(hub, AdvisorHub):
        raise _refused(501, said("this appliance has no advisor"))
    return hub


@blueprint.post("/training")
@protected(_guard)
def training() -> Any:
    """Training mode on or off for this game (the advisor answers only when it is on)."""
    on = validate.switch(validate.json_body().get("on"), "on")
    hub = _advisor()
    return jsonify(_command(lambda: hub.set_training(on)))


@blueprint.get("/advice")
def advice() -> Any:
    """Threats, exposure and the best play now — only when asked, only in training
    mode (a 409 with the hub's words otherwise). Each hint's ``why`` (English) is said
    again in the reader's language as ``reason``, from its msgid and fields."""
    answer = _command(_advisor().advice)
    if isinstance(answer, dict):
        for hint in [answer.get("hint"), *(answer.get("alternatives") or [])]:
            if isinstance(hint, dict) and isinstance(hint.get("why"), str):
                hint["reason"] = _reason(hint)
    return _no_store(jsonify(answer))


def _reason(hint: dict[str, Any]) -> str:
    """A hint's why in the reader's language (the English why where it has no msgid)."""
    msgid, words = hint.get("say"), hint.get("words")
    if not isinstance(msgid, str) or not isinstance(words, dict):
        return str(hint["why"])
    return translated(said(msgid, **words), tr())


# ------------------------------------------------------------------ history


def _history() -> History:
    history = context().history
    if history is None:
        raise _refused(404, said("this appliance keeps no game log"))
    return history


def _game_id(value: str) -> int:
    return validate.whole(value, "a game id", 1, verb="is")


@blueprint.get("/games")
def games() -> Any:
    history = context().history
    return jsonify(log=history is not None, games=history.games() if history else [])


@blueprint.get("/games/<game_id>/record")
def record(game_id: str) -> Response:
    number = _game_id(game_id)
    data = _history().record(number)
    response = Response(json.dumps(data, ensure_ascii=False, indent=1), mimetype="application/json")
    if request.args.get("download") != "0":
        response.headers["Content-Disposition"] = (
            f'attachment; filename="carolus-game-{number}.json"'
        )
    return response


@blueprint.get("/games/<game_id>/step/<step>")
def replay_step(game_id: str, step: str) -> Any:
    number = _game_id(game_id)
    return jsonify(_history().step(number, validate.whole(step, "a step", verb="is"), tr()))


@blueprint.get("/games/<game_id>/charts")
def charts(game_id: str) -> Any:
    return jsonify(_history().charts(_game_id(game_id)))


# ------------------------------------------------------------------ camera


def _camera() -> CameraHub:
    """The hub's camera, for this browser: the picture of the room is open to the local
    network like the state, unless ``web.camera_needs_pin`` asks for the PIN first."""
    ctx = context()
    hub = ctx.hub
    if not isinstance(hub, CameraHub):
        raise _refused(404, said("no camera"))
    if ctx.camera_needs_pin and not ctx.guard.trusted():
        raise _refused(401, said("enter the PIN shown on the appliance to see the camera"))
    return hub


@blueprint.get("/camera.jpg")
def camera_frame() -> Response:
    frame = _camera().camera_jpeg()
    if frame is None:
        raise _refused(503, said("the camera has no picture yet"))
    return _no_store(Response(frame, mimetype="image/jpeg"))


@blueprint.get("/camera.mjpeg")
def camera_stream() -> Response:
    """The camera as MJPEG (``multipart/x-mixed-replace``) until the page goes away."""
    jpeg = _camera().camera_jpeg
    ctx = context()
    if not ctx.open_stream():  # a camera view holds a server thread like a live page
        raise _refused(503, said("too many live pages open; this one will retry"))
    gone = _gone()

    def frames() -> Iterator[bytes]:
        try:
            while not ctx.stopping.is_set() and not gone():
                frame = jpeg()
                if frame is not None:
                    yield (
                        b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: "
                        + str(len(frame)).encode()
                        + b"\r\n\r\n"
                        + frame
                        + b"\r\n"
                    )
                time.sleep(1 / CAMERA_FPS)
        finally:
            ctx.close_stream()

    return _no_store(Response(frames(), mimetype="multipart/x-mixed-replace; boundary=frame"))


@blueprint.get("/camera/overlay")
def camera_overlay() -> Any:
    hub = context().hub
    if not isinstance(hub, OverlayHub):
        raise _refused(404, said("this camera does not report its zones"))
    return jsonify(hub.camera_overlay())


@blueprint.post("/calibrate")
@protected(_guard)
def calibrate() -> Any:
    validate.json_body()
    hub = context().hub
    if not isinstance(hub, CameraHub):
        raise _refused(404, said("no camera"))
    reply = dict(_command(hub.calibrate))
    if isinstance(reply.get("message"), str):  # the camera's words, in the reader's language
        reply["message"] = translated(reply["message"], tr())
    return jsonify(reply)
