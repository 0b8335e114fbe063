"""People at the table, scripted: what they would press, looking at the screen.

:class:`TablePlayer` plays whole games through the screens: it starts a new game from
the menu, lets the throw source read each throw, picks a move by pressing down and
select, and now and then asks "why?". Tests drive it through mock GPIO pins, the demo
and the benchmark straight into the event loop.

Run as a module it plays one game in a state folder and prints each save as it happens
(``saving FEN`` before, ``saved FEN`` after): the power-cut test kills it at random.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from pathlib import Path

from companion.device import texts
from companion.device.app import App, DeviceInfo
from companion.device.events import Event, Key, Press, Stop
from companion.device.screens import (
    AwaitThrow,
    Choosing,
    GameOver,
    Hints,
    Menu,
    Message,
    Saver,
    Setup,
    SphinxMove,
    Thinking,
    ThrowShown,
    Why,
)
from companion.device.state import Settings, StateStore
from companion.device.throwsource import ThrowSource

SELECT, DOWN, BACK = Press(Key.SELECT), Press(Key.DOWN), Press(Key.BACK)


class TablePlayer:
    """Chooses the next presses (or throw readings) for the screen the App shows."""

    def __init__(
        self,
        rng: random.Random,
        throws: ThrowSource,
        *,
        why_every: int = 0,
        hint_every: int = 0,
    ) -> None:
        self.rng = rng
        self.throws = throws
        self.why_every = why_every  # ask "why?" before every n-th move (0: never)
        self.hint_every = hint_every  # ask for hints before every n-th move (0: never)
        self.moves_chosen = 0

    def next_events(self, app: App) -> list[Event]:
        """What happens next at the table; empty once the game is over."""
        screen = app.screen
        if isinstance(screen, Message | Saver | ThrowShown):
            return [SELECT]
        if isinstance(screen, Menu):
            return self._new_game(app, screen.cursor)
        if isinstance(screen, Setup):
            return self._start(app, screen)
        if isinstance(screen, AwaitThrow):
            return [self.throws.next_throw(app._game().rules)]
        if isinstance(screen, Thinking):  # no event loop here: the Sphinx decides now
            answer = app.answer_here()
            return [answer] if answer is not None else []
        if isinstance(screen, SphinxMove):
            return [SELECT]  # the Sphinx's piece moved as it said
        if isinstance(screen, Why):
            return [DOWN, BACK]
        if isinstance(screen, Hints):
            return [DOWN, SELECT]  # back to the moves, at the second-best one
        if isinstance(screen, Choosing):
            return self._choose(app, screen.index)
        if isinstance(screen, GameOver):
            return []
        return [BACK]

    def _new_game(self, app: App, cursor: int) -> list[Event]:
        labels = [label for label, _ in app.menu_items()]
        target = labels.index(texts.text("new-game", app.lang))
        presses: list[Event] = [DOWN] * ((target - cursor) % len(labels))
        return [*presses, SELECT]

    def _start(self, app: App, screen: Setup) -> list[Event]:
        """Start with the settings as they are (a test sets the seats beforehand)."""
        labels = [label for label, _ in app.setup_items(screen.draft)]
        target = labels.index(texts.text("start-game", app.lang))
        return [*[DOWN] * ((target - screen.cursor) % len(labels)), SELECT]

    def _choose(self, app: App, index: int) -> list[Event]:
        self.moves_chosen += 1
        moves = app.moves()
        if self.hint_every and self.moves_chosen % self.hint_every == 0:
            return [Press(Key.UP, long=True)]  # the Hints screen comes back to Choosing
        chosen = self.rng.randrange(len(moves))
        presses: list[Event] = [DOWN] * ((chosen - index) % len(moves))
        if self.why_every and self.moves_chosen % self.why_every == 0:
            presses.append(Press(Key.SELECT, long=True))
            return presses  # the Why screen comes back to Choosing; choose again then
        return [*presses, SELECT]


def _say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def play_one_game(state_dir: Path, *, seed: int, game: str, max_events: int = 100_000) -> int:
    """Play a whole game in ``state_dir`` (resuming what is saved there), printing saves."""
    from companion.device.throwsource import FakeThrows

    rng = random.Random(seed)
    store = StateStore(
        state_dir,
        on_saving=lambda fen: _say(f"saving {fen}"),
        on_saved=lambda fen: _say(f"saved {fen}"),
    )
    app = App(store, settings=Settings(game=game), info=DeviceInfo(), rng=rng)
    player = TablePlayer(rng, FakeThrows(rng))
    clock = 0.0
    for _ in range(max_events):
        events = player.next_events(app)
        if not events:
            break
        for event in events:
            clock += 0.1
            app.handle(event, clock)
    app.handle(Stop(), clock)
    _say("finished")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Play one scripted game through the screens.")
    parser.add_argument("state_dir", type=Path)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", default="senet-kendall")
    args = parser.parse_args(argv)
    return play_one_game(args.state_dir, seed=args.seed, game=args.game)


if __name__ == "__main__":
    sys.exit(main())
