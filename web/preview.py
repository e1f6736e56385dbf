"""A hub without a table: a real `Game` driven by self-play, for the page's tests, its
benchmark and a preview on a laptop (``python -m web.preview``).

It follows the `firmware.hub.Hub` contract like the appliance does: every engine event
is published on the bus as a `referee.table.events.Stamped` with the time (and no
referee's words: the page says them), and each change of the position is followed by a
`web.events.StateChanged` (``state``). Its other events are the table's and the
appliance's kinds with fewer fields (no words; an undo says the step it took back, as
the appliance's).
Corrections lay the position out with `Game.arrange`, as a person correcting the
referee would.
"""

from __future__ import annotations

import io
import random
import threading
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from firmware.bus import EventBus
from firmware.events import GameEnded, Training
from firmware.hub import CommandError, Reply
from firmware.view import MajorityView, View, game_view, majorities_view, majority_view
from referee.check import check_file
from referee.events import Event
from referee.game import Game, Phase
from referee.moves import Move, MoveEmperor, move_to_json
from referee.pieces import COLOURS
from referee.selfplay import choose_disc, random_player, roll_refill
from referee.setup import Player, Setup
from referee.table.events import Confirmed, Corrected, Stamped, TableEvent, Undone
from web.events import GameStarted, StateChanged

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "club-night.json"


class PreviewHub:
    """A self-playing table: `advance` makes the next move, like a player would."""

    def __init__(
        self, record: str | Path = EXAMPLE, seed: int = 7, bus: EventBus | None = None
    ) -> None:
        verdict = check_file(record)
        if verdict.game is None:
            raise ValueError(f"{record}: not a playable record")
        self.game: Game = verdict.game
        self.bus = bus or EventBus()
        self.rng = random.Random(seed)
        self.screen = "live"
        self.confirmed = 0
        self._lock = threading.RLock()
        self._planned_steps: int | None = None
        self._t0 = time.monotonic()
        self.training = False  # the advisor answers only in training mode, per game

    # ------------------------------------------------------------ playing

    def _publish(self, events: Sequence[Event | TableEvent]) -> list[TableEvent]:
        """Publish ``events`` at the preview's time (an engine event `Stamped`), then
        that the position changed; the events as published."""
        t = round(time.monotonic() - self._t0, 3)
        published = [
            Stamped(engine=event, t=t) if isinstance(event, Event) else replace(event, t=t)
            for event in events
        ]
        for event in published:
            self.bus.publish(event)
        self.bus.publish(StateChanged(t=t))
        return published

    def advance(self) -> list[TableEvent]:
        """Play the next move (disc, cubes, emperor or refill); its events as published
        (the rules' events, `Stamped`). Nothing happens once the game is over."""
        with self._lock:
            game = self.game
            if game.is_over:
                return []
            move: Move
            if game.phase is Phase.OPENING:
                move = choose_disc(game, self.rng)
            elif game.step.value == "cubes":
                move, self._planned_steps = random_player(game, self.rng)
            elif game.step.value == "emperor":
                player = game.to_move
                assert player is not None
                move = MoveEmperor(player, self._planned_steps or 1)
            else:
                move = roll_refill(game, self.rng)
            return self._publish(game.push(move))

    def play_out(self, max_moves: int = 5000) -> int:
        """Advance until the game is over; the number of moves made."""
        made = 0
        while not self.game.is_over and made < max_moves:
            self.advance()
            made += 1
        return made

    # ---------------------------------------------------------------- Hub

    def state(self) -> View:
        with self._lock:
            return game_view(self.game, camera="demo", training=self.training)

    def majority(self, territory: int) -> MajorityView:
        with self._lock:
            return majority_view(self.game, territory)

    def majorities(self) -> list[MajorityView]:
        with self._lock:
            return majorities_view(self.game)

    def correct(self, zone: str, counts: dict[str, int]) -> Reply:
        kind, _, where = zone.partition(":")
        colours = [c for c in COLOURS for _ in range(int(counts.get(c, 0)))]
        with self._lock:
            try:
                if kind == "territory" and where in {str(n) for n in range(1, 16)}:
                    self.game.arrange(territories={int(where): colours})
                elif kind in ("court", "reserve"):
                    player = next((p.name for p in self.game.players if p.seat == where), None)
                    if player is None:
                        raise CommandError(f"nobody sits at {where!r}")
                    if kind == "court":
                        self.game.arrange(courts={player: colours})
                    else:
                        self.game.arrange(reserves={player: colours})
                else:
                    raise CommandError(f"unknown zone {zone!r}")
            except ValueError as exc:
                raise CommandError(str(exc)) from None
            self._publish([Corrected(zone=zone, counts=dict(counts))])
            return self.state()

    def undo(self) -> Reply:
        with self._lock:
            if not self.game.move_stack:
                raise CommandError("there is no step to undo")
            move = self.game.pop()
            self._publish([Undone(move=move_to_json(move))])
            return self.state()

    def confirm(self) -> Reply:
        with self._lock:
            self.confirmed += 1
            self._publish([Confirmed()])
            return self.state()

    def press(self, button: str, long: bool = False) -> Reply:
        if button == "majorities":
            self.screen = "live" if long or self.screen == "majorities" else "majorities"
            return {"screen": self.screen}
        if button == "confirm":
            return self.undo() if long else self.confirm()
        raise CommandError(f"no button {button!r}")

    def display_png(self) -> bytes:
        """A 128x64 picture of the OLED, scaled 4x: round, whose turn, castles."""
        from PIL import Image, ImageDraw

        view = self.state()
        image = Image.new("1", (128, 64))
        draw = ImageDraw.Draw(image)
        lines = [f"Round {view['round']} {view['phase']}", f"> {view['to_move'] or '-'}"]
        lines += [f"{p['name'][:10]} {p['territories']} castles" for p in view["players"]]
        for i, line in enumerate(lines[:5]):
            draw.text((2, 2 + 12 * i), line, fill=1)
        out = io.BytesIO()
        image.resize((512, 256)).save(out, "PNG")
        return out.getvalue()

    # ------------------------------------------------------------- extras

    def new_game(self, players: list[dict[str, str]]) -> Reply:
        with self._lock:
            chosen = [Player(p["name"], p["castles"], p.get("seat")) for p in players]
            try:
                self.game = Game(Setup.random(chosen, self.rng))
            except ValueError as exc:
                raise CommandError(str(exc)) from None
            self.training = False  # off by default, enabled per game
            self._publish([GameStarted(players=tuple(p["name"] for p in players))])
            return self.state()

    def set_training(self, on: bool) -> Reply:
        """Training mode for this game: the advisor answers when asked, never unasked."""
        with self._lock:
            self.training = bool(on)
            self._publish([Training(on=self.training)])
            return {"training": self.training}

    def advice(self) -> Reply:
        """Threats, exposure and the best play now (training mode only)."""
        from referee.advisor import advise

        with self._lock:
            if not self.training:
                raise CommandError("the advisor is off: turn training mode on for this game")
            if self.game.is_over:
                raise CommandError("no game to advise on")
            return advise(self.game.copy()).to_json()

    def end_game(self) -> Reply:
        with self._lock:
            self._publish([GameEnded()])
            return self.state()


def main() -> None:  # pragma: no cover - a manual preview
    """Serve the page on http://127.0.0.1:8080 over a self-playing game."""
    import argparse

    from web.server import serve

    parser = argparse.ArgumentParser(description="Preview the web page over self-play.")
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--speed", type=float, default=1.0, help="moves per second")
    args = parser.parse_args()
    hub = PreviewHub()
    handle = serve(hub, "127.0.0.1", args.port)
    print(f"{handle.url}  PIN {handle.pin}", flush=True)
    try:
        while True:
            time.sleep(1 / args.speed)
            hub.advance()
    except KeyboardInterrupt:
        handle.stop()


if __name__ == "__main__":  # pragma: no cover
    main()
