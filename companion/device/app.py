"""The screens: a state machine over events, and the view of each state.

:class:`App` holds the game and the current screen (a small frozen value). ``handle``
takes one event and moves to the next screen; ``view`` describes what to show, for the
pure renderer. Nothing here touches hardware: what the screens want done outside (a
beep, the contrast, shutting down) is left in ``effects`` for the event loop.

Buttons: up/down choose, select confirms, back goes back or undoes; holding select asks
"why?", holding up or down asks for hints, holding back opens the menu.

When the Sphinx plays a seat, the screens ask it through a :class:`Thinking` screen: the
request is left for the event loop (``Effect.THINK``), which runs the search off the loop
and puts the answer back on the queue as a :class:`SphinxAnswer`.

Calibration and enrolment from the settings work the same way: the screens leave a
:class:`CameraTask` (``Effect.CAMERA``), the loop hands it to the camera thread, which
answers with a :class:`CameraDone`; the App never touches the camera.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from companion import throwlog
from companion.core import END, Move, RaceGame, RuleSet
from companion.device import editor, setup, texts, throwreport, views
from companion.device.boards import FamilyScreens, screens_for
from companion.device.events import (
    CameraBack,
    CameraDone,
    CameraFailed,
    CameraTask,
    Effect,
    Event,
    Key,
    Press,
    SphinxAnswer,
    Stop,
    ThrowRead,
    ThrowRefused,
    Tick,
)
from companion.device.screens import (
    AwaitThrow,
    Calibrating,
    Choosing,
    ConfirmShutdown,
    Editor,
    EnrolChoice,
    Enrolling,
    GameOver,
    Goodbye,
    Hints,
    Menu,
    Message,
    Saver,
    Screen,
    SettingsMenu,
    Setup,
    SphinxMove,
    Stats,
    Taught,
    Thinking,
    ThrowShown,
    Why,
)
from companion.device.sphinxturn import (
    Purpose,
    ThinkRequest,
    agrees_to_end,
    decides_before_throw,
    players_of,
    seat_of_side,
    side_of_seat,
    think,
)
from companion.device.state import PERSON, Settings, StateStore
from companion.device.view import View
from companion.errors import CompanionError, NotationError
from companion.reading import kit_for
from companion.sphinx import Level
from companion.throws import Throw

AnyGame = RaceGame[Any]
SCORE_SHOWN_FOR = 1.5  # seconds the score stays before the moves
CONTRAST_STEPS = (32, 96, 160, 255)
QUIET_RULINGS = frozenset({"distance", "hand-passes", "extra-throw"})
STICKS_IN_KIT = {"sticks4": 4, "sticks3": 3}

SETTING_KEYS = (  # the settings menu's lines, top to bottom
    "contrast",
    "dev-mode",
    "display",
    "address",
    "version",
    "calibrate",
    "enrol",
    "shut-down",
)


@dataclass(frozen=True)
class DeviceInfo:
    """What the settings screen shows about the machine."""

    version: str = "0.1.0"
    display: str = "ssd1306"
    address: Callable[[], str] = field(default=lambda: "unknown")
    saver_after: float = 300.0  # seconds without a button before the screen saver
    camera: bool = False  # a camera is configured


@dataclass(frozen=True)
class HandChoice:
    """One line of the throws offered by hand: a throw, a random throw, or a move."""

    label: str
    throw: Throw | None = None
    move: Move | None = None


class App:
    """The device's screens over one game."""

    def __init__(
        self,
        store: StateStore,
        *,
        settings: Settings,
        info: DeviceInfo,
        rng: random.Random | None = None,
    ) -> None:
        self.store = store
        self.settings = settings
        self.info = info
        self.rng = rng or random.Random()
        self.effects: list[Effect] = []
        self.camera_ok = info.camera
        self.now = 0.0
        self.last_press = 0.0
        self.finished = False
        self.game: AnyGame | None = None
        self.start = ""
        self.request: ThinkRequest | None = None  # a decision for the loop to run
        self.camera_task: CameraTask | None = None  # a job for the camera thread
        self._decided: dict[tuple[str, str], SphinxAnswer] = {}
        self._screen: Screen = Menu()
        self._boot()

    @property
    def screen(self) -> Screen:
        return self._screen

    @screen.setter
    def screen(self, screen: Screen) -> None:
        # Back to the Sphinx's thinking from a message over it, or from the screen saver,
        # is no new question: only a Thinking that is not already under them asks.
        if isinstance(screen, Thinking) and screen != self._unwrapped():
            self._ask(screen)
        self._screen = screen

    # ----- life cycle -------------------------------------------------------------------
    def _boot(self) -> None:
        saved = self.store.load_game()
        if saved is not None:
            self.game, self.start = saved
            self.screen = self._play_screen()
        for problem in self.store.problems:
            self.screen = Message(self._t("problem"), (problem,), self.screen)

    @property
    def lang(self) -> str:
        return self.settings.lang

    def _t(self, key: str, **values: object) -> str:
        return texts.text(key, self.lang, **values)

    def take_effects(self) -> list[Effect]:
        effects, self.effects = self.effects, []
        return effects

    def take_request(self) -> ThinkRequest | None:
        """The decision the Sphinx has to make, for the loop's worker (once)."""
        request, self.request = self.request, None
        return request

    def take_camera_task(self) -> CameraTask | None:
        """The job for the camera thread (once)."""
        task, self.camera_task = self.camera_task, None
        return task

    def answer_here(self) -> SphinxAnswer | None:
        """Scripts without a loop: the Sphinx decides now, on this thread."""
        request = self.take_request()
        return think(request) if request is not None else None

    # ----- events -----------------------------------------------------------------------
    def handle(self, event: Event, now: float) -> None:
        """Move to the next screen after ``event``, at time ``now`` (seconds)."""
        self.now = now
        if self.finished:
            return
        try:
            self._dispatch(event)
        except CompanionError as error:  # a refused action or a save that failed
            self.screen = Message(self._t("problem"), (str(error),), self._play_screen())

    def _dispatch(self, event: Event) -> None:
        if isinstance(event, Stop):
            self._goodbye()
        elif isinstance(event, Press):
            self._press(event)
        elif isinstance(event, Tick):
            self._tick()
        elif isinstance(event, ThrowRead):
            self._throw_read(event.shown)
        elif isinstance(event, SphinxAnswer):
            self._sphinx_answer(event)
        elif isinstance(event, ThrowRefused):
            self._throw_refused(event.reason)
        elif isinstance(event, CameraFailed):
            self.camera_ok = False
            self._tell(self._t("camera"), self._t("camera-failed", reason=event.reason))
        elif isinstance(event, CameraDone):
            self._camera_done(event)
        elif isinstance(event, CameraBack):
            self.camera_ok = True
            self._tell(self._t("camera"), self._t("camera-back"))

    def _tell(self, title: str, line: str) -> None:
        """A message shown after those already on the screen (a problem found at start-up
        is not pushed away by the camera's news)."""
        self.screen = _rewrapped(self.screen, Message(title, (line,), self._unwrapped()))

    def _unwrapped(self) -> Screen:
        screen = self.screen
        while isinstance(screen, Message | Saver):
            screen = screen.then
        return screen

    def _tick(self) -> None:
        screen = self.screen
        if isinstance(screen, ThrowShown) and self.now - screen.since >= SCORE_SHOWN_FOR:
            self.screen = self._play_screen()
        elif (
            not isinstance(screen, Saver | Goodbye)
            and self.now - self.last_press >= self.info.saver_after
        ):
            self.screen = Saver(screen)

    def _press(self, press: Press) -> None:
        self.last_press = self.now
        screen = self.screen
        if isinstance(screen, Saver):  # waking the screen is all the press does
            self.screen = screen.then
            return
        if press.long and press.key is Key.BACK and not isinstance(screen, Menu | Goodbye):
            self.screen = Menu()
            return
        handler = _PRESS_HANDLERS.get(type(screen))
        if handler is not None:
            handler(self, screen, press)

    def _throw_read(self, shown: str) -> None:
        screen = self._unwrapped()
        if not isinstance(screen, AwaitThrow) or self.game is None:
            return  # a throw seen while the players move pieces is not a new throw
        self._throw(self.game.rules.parse_throw(shown), source="camera")

    def _throw_refused(self, reason: str) -> None:
        if isinstance(self._unwrapped(), AwaitThrow):
            self.screen = Message(self._t("throw-again"), (reason,), self._unwrapped())

    # ----- actions on the game ----------------------------------------------------------
    def _throw(self, throw: Throw, *, source: str | None) -> None:
        """Record a throw; one read or entered (``source``) is logged for the statistics,
        a random one of dev mode is not."""
        game = self._game()
        game.throw(throw)
        self._save()
        self.effects.append(Effect.BEEP)
        self.screen = ThrowShown(self.now)
        if source is not None:
            throwlog.record(self.store.throw_log_path, game.rules.name, throw, source=source)

    def _confirm(self, move: Move) -> None:
        game = self._game()
        game.push(move)
        self._save()
        self.screen = self._play_screen()

    def _undo(self) -> None:
        game = self._game()
        if not game.history:
            self.screen = Message(self._t("problem"), (self._t("nothing-to-undo"),), self.screen)
            return
        game.pop()
        self._save()
        self.screen = self._play_screen()

    def _new_game(self, draft: Settings) -> None:
        """Start the game set up in ``draft``; its seats are saved with the settings so a
        resumed game keeps its Sphinx."""
        rules = draft.rules()
        seats = tuple(draft.seat(index) for index in range(rules.players))
        self._change_settings(
            game=draft.game, options=draft.options, first=draft.first, seats=seats
        )
        self.game = rules.game()
        self.start = self.game.fen()
        self._decided.clear()
        self._save()
        self.screen = self._play_screen()

    def _save(self) -> None:
        if self.game is not None:
            self.store.save_game(self.game, self.start)

    def _game(self) -> AnyGame:
        if self.game is None:
            raise CompanionError("no game in progress")
        return self.game

    def _play_screen(self) -> Screen:
        """The screen that fits the game's state: throw, choose a move, the Sphinx's turn,
        or game over."""
        game = self.game
        if game is None:
            return Menu()
        if game.is_over():
            return GameOver()
        sphinx = self.sphinx_to_move() is not None
        fen = game.fen()
        if game.position.throw is None:
            if sphinx and decides_before_throw(game):
                answer = self._decided.get((Purpose.BEFORE.value, fen))
                if answer is None:
                    return Thinking(Purpose.BEFORE.value, fen)
                if answer.moves:
                    return SphinxMove(Move.parse(answer.moves[0]))
            return AwaitThrow()
        if sphinx:
            answer = self._decided.get((Purpose.MOVE.value, fen))
            if answer is None:
                return Thinking(Purpose.MOVE.value, fen)
            return SphinxMove(Move.parse(answer.moves[0]))
        return Choosing()

    # ----- the Sphinx -------------------------------------------------------------------
    def seat_to_move(self) -> int:
        game = self._game()
        return seat_of_side(game, self.start, self.settings.first, game.position.turn)

    def sphinx_to_move(self) -> Level | None:
        """The Sphinx's level when it plays the side to move, else None."""
        kind = self.settings.seat(self.seat_to_move())
        return None if kind == PERSON else Level(kind)

    def sphinx_advice(self) -> str:
        """How the Sphinx chose to throw (a key of the game's throw options), if it chose."""
        answer = self._decided.get((Purpose.BEFORE.value, self._game().fen()))
        return answer.option if answer is not None else ""

    def _ask(self, screen: Thinking) -> None:
        purpose = Purpose(screen.purpose)
        level = Level.NORMAL if purpose is Purpose.HINT else self.sphinx_to_move()
        seed = self.rng.randrange(2**31)
        rules = self._game().rules
        self.request = ThinkRequest(purpose, rules, screen.fen, level or Level.NORMAL, seed)
        self.effects.append(Effect.THINK)

    def _sphinx_answer(self, answer: SphinxAnswer) -> None:
        key = (answer.purpose, answer.fen)
        waiting = self._unwrapped()
        if not isinstance(waiting, Thinking) or (waiting.purpose, waiting.fen) != key:
            return  # an answer to a question no longer asked (undone, left)
        if answer.problem:  # the players choose for it (or throw) this time
            self._decided.pop(key, None)
            instead = Choosing() if self._game().position.throw is not None else AwaitThrow()
            following: Screen = Message(self._t("problem"), (answer.problem,), instead)
        elif answer.purpose != Purpose.HINT.value:
            self._decided[key] = answer
            following = self._play_screen()
        else:
            moves = tuple(Move.parse(move) for move in answer.moves)
            following = Hints(moves, answer.values)
        self.screen = _rewrapped(self.screen, following)

    def _sphinx_sides_agree_to_end(self) -> bool:
        game = self._game()
        for seat in range(players_of(game)):
            if self.settings.seat(seat) == PERSON:
                continue
            side = side_of_seat(game, self.start, self.settings.first, seat)
            if not agrees_to_end(game, side):
                return False
        return True

    def _ask_hints(self) -> None:
        self.screen = Thinking(Purpose.HINT.value, self._game().fen())

    def _goodbye(self) -> None:
        self.screen = Goodbye()
        self.finished = True
        self.effects.append(Effect.FINISHED)

    def _change_settings(self, **changes: Any) -> None:
        self.settings = replace(self.settings, **changes)
        self.store.save_settings(self.settings)

    # ----- what the screens offer -------------------------------------------------------
    def hand_choices(self) -> list[HandChoice]:
        """Throws offered by hand (a random one first in dev mode), and moves that may
        be made instead of throwing."""
        game = self._game()
        sphinx = self.sphinx_to_move() is not None  # it chose already: throw for it
        choices = [
            HandChoice(self._t("instead", move=move), move=move)
            for move in ([] if sphinx else game.legal_moves())
        ]
        if self.settings.dev_mode:
            choices.append(HandChoice(self._t("random")))
        for outcome in _distinct_outcomes(game):
            label = self._t("throw-choice", score=outcome[0], shown=outcome[1])
            choices.append(HandChoice(label, throw=game.rules.parse_throw(outcome[1])))
        return choices

    def moves(self) -> list[Move]:
        return self._game().legal_moves()

    def family(self) -> FamilyScreens | None:
        return screens_for(self._game())

    def why_pieces(self) -> list[int]:
        family = self.family()
        return family.pieces(self._game()) if family is not None else []

    def menu_items(self) -> list[tuple[str, Callable[[], None]]]:
        items: list[tuple[str, Callable[[], None]]] = []
        game = self.game
        if game is not None and not game.is_over():
            resume = self._t("resume", game=game.rules.name)
            items.append((resume, lambda: setattr(self, "screen", self._play_screen())))
        if game is not None:
            edit = (self._t("edit-position"), lambda: setattr(self, "screen", Editor(game.fen())))
            items.append(edit)
        items.append((self._t("new-game"), self._set_up))
        name = texts.LANGUAGE_NAMES[self.lang]
        items.append((self._t("language", name=name), self._next_language))
        items.append((self._t("throw-stats"), self._show_stats))
        items.append((self._t("settings"), lambda: setattr(self, "screen", SettingsMenu())))
        return items

    def setup_items(self, draft: Settings) -> list[tuple[str, setup.Change]]:
        """The lines of the new-game screen for ``draft``; a change returns the new draft,
        or None to start the game."""
        return setup.items(draft, self.lang, next_language=self._next_language)

    def _set_position(self, text: str, cursor: int) -> None:
        """Play on from an edited position (checked by the engine); the seats keep their
        sides. The history starts again from it: undo stops there."""
        game = self._game()
        try:
            edited = game.rules.game(text)
        except CompanionError as error:
            self.screen = Message(self._t("problem"), (str(error),), Editor(text, cursor))
            return
        seat_of_first_side = seat_of_side(game, self.start, self.settings.first, 0)
        first = (seat_of_first_side + edited.position.turn) % players_of(edited)
        self.game, self.start = edited, edited.fen()
        self._decided.clear()
        self._change_settings(first=first)
        self._save()
        self.screen = self._play_screen()

    def _set_up(self) -> None:
        """The new-game screen on its "start" line: select again starts the same kind of
        game; up goes through the rule set, its options, the language and the seats."""
        lines = self.setup_items(self.settings)
        self.screen = Setup(len(lines) - 1, self.settings)

    def _rules_in_play(self) -> RuleSet:
        """The game's rule set, or the one the next game will be played by."""
        return self.game.rules if self.game is not None else self.settings.rules()

    def _show_stats(self) -> None:
        rules = self._rules_in_play()
        log = throwlog.read(self.store.throw_log_path, rules.name)
        self.screen = Stats(throwreport.pages(rules, log, self.lang))

    def settings_items(self) -> list[tuple[str, Callable[[], None]]]:
        """The settings menu's lines, in the order of SETTING_KEYS."""
        state = self._t("on" if self.settings.dev_mode else "off")
        return [
            (self._t("contrast", level=self.settings.contrast), self._next_contrast),
            (self._t("dev-mode", state=state), self._toggle_dev_mode),
            (self._t("display", driver=self.info.display), _nothing),
            (self._t("address", address=self.info.address()), _nothing),
            (self._t("version", version=self.info.version), _nothing),
            (self._t("calibrate"), self._calibrate if self.info.camera else self._no_vision),
            (self._enrol_line(), self._enrol if self.info.camera else self._no_vision),
            (self._t("shut-down"), lambda: setattr(self, "screen", ConfirmShutdown())),
        ]

    def _next_language(self) -> None:
        languages = texts.LANGUAGES
        following = languages[(languages.index(self.lang) + 1) % len(languages)]
        self._change_settings(lang=following)

    def _next_contrast(self) -> None:
        higher = [level for level in CONTRAST_STEPS if level > self.settings.contrast]
        self._change_settings(contrast=higher[0] if higher else CONTRAST_STEPS[0])
        self.effects.append(Effect.CONTRAST)

    def _toggle_dev_mode(self) -> None:
        self._change_settings(dev_mode=not self.settings.dev_mode)

    def _no_vision(self) -> None:
        self.screen = Message(self._t("camera"), (self._t("no-vision"),), self.screen)

    # ----- calibration and enrolment, by the camera thread -------------------------------
    def _calibrate(self) -> None:
        self.screen = Calibrating()

    def _enrolments(self) -> tuple[Enrolling, ...]:
        """The first step of each enrolment the rule set in play's implements can have;
        none when they have nothing to teach (dice whose pips are counted)."""
        try:
            kit = kit_for(self._rules_in_play())
        except NotationError:
            return ()
        if kit in STICKS_IN_KIT:
            return (Enrolling(0, STICKS_IN_KIT[kit]),)
        if kit == "ur":  # the numbered d4 and the yes/no stick
            return (Enrolling(0, 1, taught=Taught.D4), Enrolling(0, 1, taught=Taught.YESNO))
        return ()

    def _enrol_line(self) -> str:
        enrolments = self._enrolments()
        if len(enrolments) > 1:
            return self._t("enrol-choice")
        return self._t(enrolments[0].taught.text("enrol") if enrolments else "enrol")

    def _enrol(self) -> None:
        enrolments = self._enrolments()
        if len(enrolments) > 1:
            self.screen = EnrolChoice(enrolments)
        elif enrolments:
            self.screen = enrolments[0]
        else:
            lines = (self._t("enrol-nothing", game=self._rules_in_play().name),)
            self.screen = Message(self._t("enrol"), lines, self.screen)

    def _ask_camera(self, task: CameraTask) -> None:
        self.camera_task = task
        self.effects.append(Effect.CAMERA)

    def _take_picture(self, screen: Enrolling) -> None:
        taught = screen.taught
        shown = taught.shown(screen.step)
        self._ask_camera(CameraTask("picture", screen.step, shown, screen.count, taught.value))
        self.screen = replace(screen, waiting=True)

    def _camera_done(self, done: CameraDone) -> None:
        waiting = self._unwrapped()
        following: Screen | None = None
        if isinstance(waiting, Calibrating) and waiting.waiting and done.job == "calibrate":
            following = self._calibrated(done)
        elif isinstance(waiting, Enrolling) and waiting.waiting:
            following = self._enrolment_step(waiting, done)
        if following is not None:  # else: an answer no screen waits for any more
            self.screen = _rewrapped(self.screen, following)

    def _calibrated(self, done: CameraDone) -> Screen:
        title = self._t("calibrate")
        if done.problem:
            problem = self._t("calibrate-failed", problem=done.problem)
            return Message(title, (problem,), Calibrating())
        lines = (self._t(f"calibrated-{done.detail}"), self._t("used-from-now"))
        return Message(title, lines, self._settings_on("calibrate"))

    def _enrolment_step(self, screen: Enrolling, done: CameraDone) -> Screen | None:
        taught = screen.taught
        title = self._t(taught.text("enrol"))
        back = self._settings_on("enrol")
        if done.job == "learn" and screen.done:
            if done.problem:
                problem = self._t(taught.text("enrol-failed"), problem=done.problem)
                return Message(title, (problem,), back)
            learnt = self._t(taught.text("enrolled"), count=done.count)
            small = (self._t("small-d4"),) if done.detail == "small" else ()
            return Message(title, (learnt, *small, self._t("used-from-now")), back)
        if done.job != "picture" or done.step != screen.step:
            return None
        retake = replace(screen, waiting=False)
        if done.problem:
            return Message(title, (self._t("picture-failed", problem=done.problem),), retake)
        if done.count != screen.count:
            return Message(title, self._miscounted(screen, done.count), retake)
        following = replace(screen, step=screen.step + 1, waiting=False)
        if not following.done:
            return following
        self._ask_camera(CameraTask("learn", following.step, kind=taught.value))
        return replace(following, waiting=True)

    def _miscounted(self, screen: Enrolling, seen: int) -> tuple[str, ...]:
        """What a picture to take again says: how many were seen, and how to lay them."""
        if screen.taught is Taught.STICKS:
            miscount = self._t("sticks-seen", seen=seen, sticks=screen.count)
            return (miscount, self._t("sticks-apart"))
        return (self._t(screen.taught.text("unseen"), seen=seen), self._t("lay-it-flat"))

    def _settings_on(self, key: str) -> SettingsMenu:
        return SettingsMenu(SETTING_KEYS.index(key))

    # ----- views ------------------------------------------------------------------------
    def view(self) -> View:
        """What the current screen shows."""
        return views.view_of(self, self.screen)


def _nothing() -> None:
    return None


def _rewrapped(screen: Screen, inner: Screen) -> Screen:
    """``screen`` with the screen under its messages replaced by ``inner``."""
    if isinstance(screen, Message):
        return replace(screen, then=_rewrapped(screen.then, inner))
    if isinstance(screen, Saver):
        return Saver(_rewrapped(screen.then, inner))
    return inner


def _distinct_outcomes(game: AnyGame) -> list[tuple[int | str, str]]:
    """(score, what the implements show) for each outcome, one per distinct throw, of
    every way the player to move may throw (Senet-Modern's one die, N6)."""
    seen: set[Throw] = set()
    listed: list[tuple[int | str, str]] = []
    ways = game.throw_options(game.position).values()
    for outcome in (outcome for outcomes in ways for outcome in outcomes):
        if outcome.throw in seen:
            continue
        seen.add(outcome.throw)
        listed.append((str(outcome.throw), outcome.shown))
    return listed


def _cycle(index: int, step: int, length: int) -> int:
    return (index + step) % length if length else 0


# ----- buttons, screen by screen ----------------------------------------------------------
def _on_menu(app: App, screen: Menu, press: Press) -> None:
    items = app.menu_items()
    _menu_press(app, screen.cursor, items, press, lambda cursor: Menu(cursor), back=_resume)


def _resume(app: App) -> None:
    if app.game is not None:
        app.screen = app._play_screen()


def _on_settings(app: App, screen: SettingsMenu, press: Press) -> None:
    items = app.settings_items()
    _menu_press(
        app, screen.cursor, items, press, lambda cursor: SettingsMenu(cursor), back=_to_menu
    )


def _to_menu(app: App) -> None:
    app.screen = Menu()


def _menu_press(
    app: App,
    cursor: int,
    items: Sequence[tuple[str, Callable[[], None]]],
    press: Press,
    at: Callable[[int], Screen],
    *,
    back: Callable[[App], None],
) -> None:
    if press.key is Key.UP:
        app.screen = at(_cycle(cursor, -1, len(items)))
    elif press.key is Key.DOWN:
        app.screen = at(_cycle(cursor, 1, len(items)))
    elif press.key is Key.SELECT:
        before = app.screen
        items[cursor][1]()
        if app.screen == before:  # the item changed a setting: stay on its line
            app.screen = at(cursor)
    elif press.key is Key.BACK:
        back(app)


def _on_await_throw(app: App, screen: AwaitThrow, press: Press) -> None:
    choices = app.hand_choices()
    if press.key in (Key.UP, Key.DOWN):
        step = -1 if press.key is Key.UP else 1
        app.screen = AwaitThrow(_cycle(screen.choice, step, len(choices)))
    elif press.key is Key.SELECT and not press.long:
        choice = choices[min(screen.choice, len(choices) - 1)]
        if choice.move == END and not app._sphinx_sides_agree_to_end():
            app.screen = Message(app._t("problem"), (app._t("sphinx-refuses-end"),), screen)
        elif choice.move is not None:
            app._confirm(choice.move)
        elif choice.throw is not None:
            app._throw(choice.throw, source="typed")
        else:
            app._throw(app._game().random_throw(app.rng), source=None)
    elif press.key is Key.BACK:
        app._undo()


def _on_throw_shown(app: App, screen: ThrowShown, press: Press) -> None:
    if press.key is Key.BACK:
        app._undo()  # the throw was misread: take it back and enter it again
    else:
        app.screen = app._play_screen()


def _on_choosing(app: App, screen: Choosing, press: Press) -> None:
    moves = app.moves()
    if press.key in (Key.UP, Key.DOWN) and not press.long:
        step = -1 if press.key is Key.UP else 1
        app.screen = Choosing(_cycle(screen.index, step, len(moves)))
    elif press.key in (Key.UP, Key.DOWN) and press.long:
        app._ask_hints()
    elif press.key is Key.SELECT and press.long:
        app.screen = Why(_start_piece(app, moves[min(screen.index, len(moves) - 1)]))
    elif press.key is Key.SELECT:
        app._confirm(moves[min(screen.index, len(moves) - 1)])
    elif press.key is Key.BACK:
        app._undo()


def _start_piece(app: App, move: Move) -> int:
    pieces = app.why_pieces()
    return pieces.index(move.start) if move.start in pieces else 0


def _on_why(app: App, screen: Why, press: Press) -> None:
    pieces = app.why_pieces()
    if press.key in (Key.UP, Key.DOWN):
        step = -1 if press.key is Key.UP else 1
        app.screen = Why(_cycle(screen.index, step, len(pieces)))
    else:
        app.screen = Choosing()


def _on_setup(app: App, screen: Setup, press: Press) -> None:
    items = app.setup_items(screen.draft)
    if press.key in (Key.UP, Key.DOWN):
        step = -1 if press.key is Key.UP else 1
        app.screen = Setup(_cycle(screen.cursor, step, len(items)), screen.draft)
    elif press.key is Key.SELECT:
        draft = items[min(screen.cursor, len(items) - 1)][1](screen.draft)
        if draft is None:
            app._new_game(screen.draft)
        else:
            app.screen = Setup(screen.cursor, draft)
    elif press.key is Key.BACK:
        app.screen = Menu()


def _on_thinking(app: App, screen: Thinking, press: Press) -> None:
    if press.key is Key.BACK and screen.purpose == Purpose.HINT.value:
        app.screen = Choosing()  # no need to wait for the hints
    elif press.key is Key.BACK:
        app._undo()


def _on_sphinx_move(app: App, screen: SphinxMove, press: Press) -> None:
    if press.key is Key.SELECT and not press.long:
        app._confirm(screen.move)  # the players moved the Sphinx's piece
    elif press.key is Key.BACK:
        app._undo()


def _on_hints(app: App, screen: Hints, press: Press) -> None:
    if press.key in (Key.UP, Key.DOWN) and screen.moves:
        step = -1 if press.key is Key.UP else 1
        app.screen = replace(screen, index=_cycle(screen.index, step, len(screen.moves)))
        return
    moves = app.moves()
    hinted = screen.moves[screen.index] if screen.moves else None
    app.screen = Choosing(moves.index(hinted) if hinted in moves else 0)


def _on_editor(app: App, screen: Editor, press: Press) -> None:
    text, cursor = screen.text, screen.cursor
    rules = app._game().rules
    if press.key in (Key.UP, Key.DOWN) and not press.long:
        text = editor.cycled(rules, text, cursor, 1 if press.key is Key.UP else -1)
    elif press.key is Key.UP:
        text = editor.inserted(text, cursor)
    elif press.key is Key.DOWN:
        text = editor.deleted(text, cursor)
        cursor = min(cursor, len(text) - 1)
    elif press.key is Key.SELECT and press.long:
        app._set_position(text, cursor)
        return
    else:
        step = 1 if press.key is Key.SELECT else -1
        cursor = _cycle(cursor, step, len(text))
    app.screen = Editor(text, cursor)


def _on_stats(app: App, screen: Stats, press: Press) -> None:
    if press.key in (Key.UP, Key.DOWN):
        step = -1 if press.key is Key.UP else 1
        app.screen = replace(screen, page=_cycle(screen.page, step, len(screen.pages)))
    else:
        app.screen = Menu()


def _on_game_over(app: App, screen: GameOver, press: Press) -> None:
    if press.key is Key.SELECT:
        app.screen = Menu()
    elif press.key is Key.BACK:
        app._undo()


def _on_calibrating(app: App, screen: Calibrating, press: Press) -> None:
    if screen.waiting:
        return  # the camera answers at its next frame
    if press.key is Key.SELECT:
        app._ask_camera(CameraTask("calibrate"))
        app.screen = Calibrating(waiting=True)
    elif press.key is Key.BACK:
        app.screen = app._settings_on("calibrate")


def _on_enrol_choice(app: App, screen: EnrolChoice, press: Press) -> None:
    def start(enrolment: Enrolling) -> Callable[[], None]:
        return lambda: setattr(app, "screen", enrolment)

    items = [(enrolment.taught.value, start(enrolment)) for enrolment in screen.choices]
    _menu_press(
        app,
        screen.cursor,
        items,
        press,
        lambda cursor: replace(screen, cursor=cursor),
        back=lambda app: setattr(app, "screen", app._settings_on("enrol")),
    )


def _on_enrolling(app: App, screen: Enrolling, press: Press) -> None:
    if screen.waiting:
        return
    if press.key is Key.SELECT:
        app._take_picture(screen)
    elif press.key is Key.BACK:  # nothing is saved before the last picture
        lines = (app._t(screen.taught.text("enrol-cancelled")),)
        title = app._t(screen.taught.text("enrol"))
        app.screen = Message(title, lines, app._settings_on("enrol"))


def _on_confirm(app: App, screen: ConfirmShutdown, press: Press) -> None:
    if press.key is Key.SELECT:
        app.effects.append(Effect.SHUTDOWN)
        app._goodbye()
    elif press.key is Key.BACK:  # back to the "shut down" line
        app.screen = app._settings_on("shut-down")


def _on_message(app: App, screen: Message, press: Press) -> None:
    app.screen = screen.then


_PRESS_HANDLERS: dict[type[Any], Callable[[App, Any, Press], None]] = {
    Menu: _on_menu,
    Setup: _on_setup,
    Thinking: _on_thinking,
    SphinxMove: _on_sphinx_move,
    Hints: _on_hints,
    Stats: _on_stats,
    Editor: _on_editor,
    SettingsMenu: _on_settings,
    Calibrating: _on_calibrating,
    Enrolling: _on_enrolling,
    EnrolChoice: _on_enrol_choice,
    AwaitThrow: _on_await_throw,
    ThrowShown: _on_throw_shown,
    Choosing: _on_choosing,
    Why: _on_why,
    GameOver: _on_game_over,
    ConfirmShutdown: _on_confirm,
    Message: _on_message,
}
