"""What each screen shows: from the App's state to a view for the renderer."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from companion.core import PASS, Move
from companion.device import editor
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
    SettingsMenu,
    Setup,
    SphinxMove,
    Stats,
    Taught,
    Thinking,
    ThrowShown,
    Why,
)
from companion.device.view import (
    BlankScreen,
    BoardScreen,
    Grid,
    MenuScreen,
    MessageScreen,
    ScoreScreen,
    View,
)
from companion.errors import CompanionError
from companion.throws import Throw

if TYPE_CHECKING:
    from companion.device.app import App

SAVER_STEP = 10.0  # seconds between moves of the screen saver's dot
QUIET_RULINGS = frozenset({"distance", "hand-passes", "extra-throw"})


def view_of(app: App, screen: Any) -> View:
    return _VIEWS[type(screen)](app, screen)


def _header(app: App) -> str:
    game = app._game()
    family = app.family()
    counts = f"  {family.counts(game, app.lang)}" if family is not None else ""
    sphinx = f"{app._t('sphinx')}: " if app.sphinx_to_move() is not None else ""
    return f"{sphinx}{game.turn_label(app.lang)}{counts}"


def _grid(app: App, *, move: Move | None = None, cursor: int | None = None) -> Grid | None:
    family = app.family()
    if family is None:
        return None
    return family.grid(app._game(), move=move, cursor=cursor)


def _text_board(app: App) -> tuple[str, ...]:
    return () if app.family() is not None else tuple(app._game().board_lines())


def _await_throw(app: App, screen: AwaitThrow) -> View:
    choices = app.hand_choices()
    choice = choices[min(screen.choice, len(choices) - 1)]
    prompt = app._t("throw-now" if app.camera_ok else "throw-by-hand")
    if app.sphinx_to_move() is not None:
        advice = app.sphinx_advice()
        prompt = app._t("sphinx-option", option=advice) if advice else app._t("throw-for-sphinx")
    return BoardScreen(
        _header(app),
        _grid(app),
        lines=(prompt, app._t("by-hand", choice=f"< {choice.label} >")),
        text_board=_text_board(app),
        inverted_line=1,
    )


def _last_throw(app: App) -> Throw | None:
    for action in reversed(app._game().history):
        if isinstance(action, Throw):
            return action
    return None


def _consequence(app: App, throw: Throw) -> str:
    return app._t("play-again" if throw.extra_turn else "pass")


def _throw_shown(app: App, screen: ThrowShown) -> View:
    throw = _last_throw(app)
    moves = app.moves()
    if moves == [PASS]:
        footer = app._t("no-move", why=app._game().explain(PASS).deciding.short(app.lang))
    else:
        footer = app._t("one-move") if len(moves) == 1 else app._t("moves-count", count=len(moves))
    return ScoreScreen(
        _header(app),
        str(throw) if throw else "?",
        _consequence(app, throw) if throw else "",
        footer=footer,
    )


def _choosing(app: App, screen: Choosing) -> View:
    game = app._game()
    moves = app.moves()
    index = min(screen.index, len(moves) - 1)
    move = moves[index]
    throw = _last_throw(app)
    corner = f"{throw}: {index + 1}/{len(moves)}" if throw else f"{index + 1}/{len(moves)}"
    if move == PASS:
        described = app._t("no-move", why=game.explain(PASS).deciding.short(app.lang))
    else:
        effects = [
            r.short(app.lang) for r in game.explain(move).rulings if r.rule.key not in QUIET_RULINGS
        ]
        described = f"{move}: " + "; ".join(effects) if effects else str(move)
    consequence = _consequence(app, throw) if throw else ""
    return BoardScreen(
        _header(app),
        _grid(app, move=None if move == PASS else move),
        corner=corner,
        lines=(described, consequence),
        text_board=_text_board(app),
    )


def _why(app: App, screen: Why) -> View:
    game = app._game()
    pieces = app.why_pieces()
    family = app.family()
    if not pieces or family is None:
        return MessageScreen(app._t("why-title", square="?"), (app._t("no-candidate"),))
    square = pieces[min(screen.index, len(pieces) - 1)]
    candidates = family.moves_from(game, square)
    explanations = [game.explain(move) for move in candidates]
    legal = [e for e in explanations if e.legal]
    lines: tuple[str, ...] = (app._t("no-candidate"),)
    if explanations:
        chosen = (legal or explanations)[0]
        ruling = chosen.deciding
        verdict = "allowed" if chosen.legal else "refused"
        lines = (
            app._t(verdict, move=chosen.move),
            f"[{ruling.rule.id}] {ruling.short(app.lang)}",
        )
    return BoardScreen(
        app._t("why-title", square=square),
        family.grid(game, cursor=square),
        corner=str(_last_throw(app) or ""),
        lines=lines,
    )


def _thinking(app: App, screen: Thinking) -> View:
    return BoardScreen(
        _header(app),
        _grid(app),
        corner=str(_last_throw(app) or "") if app._game().position.throw is not None else "",
        lines=(app._t("sphinx-thinks"),),
        text_board=_text_board(app),
    )


def _sphinx_move(app: App, screen: SphinxMove) -> View:
    game = app._game()
    move = screen.move
    if move == PASS:
        lines: tuple[str, ...] = (app._t("sphinx-passes"),)
    elif game.position.throw is None:
        lines = (app._t("sphinx-instead", move=move),)
    else:
        lines = (app._t("sphinx-plays", move=move), app._t("sphinx-move-it"))
    pending = game.position.throw is not None
    return BoardScreen(
        _header(app),
        _grid(app, move=None if not move.moves_a_piece else move),
        corner=str(_last_throw(app) or "") if pending else "",
        lines=lines,
        text_board=_text_board(app),
    )


def _hints(app: App, screen: Hints) -> View:
    if not screen.moves:
        return MessageScreen(app._t("hints-title"), (app._t("hints-none"),))
    index = min(screen.index, len(screen.moves) - 1)
    lines = tuple(
        app._t("hint-line", rank=rank + 1, move=move, value=f"{value:+.1f}")
        for rank, (move, value) in enumerate(zip(screen.moves, screen.values, strict=True))
    )
    move = screen.moves[index]
    return BoardScreen(
        app._t("hints-title"),
        _grid(app, move=move if move.moves_a_piece else None),
        corner=str(_last_throw(app) or ""),
        lines=lines,
        text_board=_text_board(app),
        inverted_line=index,
    )


def _setup(app: App, screen: Setup) -> View:
    items = tuple(label for label, _ in app.setup_items(screen.draft))
    return MenuScreen(app._t("new-game"), items, min(screen.cursor, len(items) - 1))


def _editor(app: App, screen: Editor) -> View:
    """The notation around the cursor under the board it describes (the game's board
    while the text is no position yet)."""
    game = app._game()
    family = app.family()
    note = ""
    try:
        edited = game.rules.game(screen.text)
    except CompanionError:
        edited, note = game, app._t("edit-invalid")
    square = editor.board_square(edited, screen.text, screen.cursor)
    header = app._t("edit-square", square=square) if square else app._t("edit-position")
    grid = family.grid(edited, cursor=square) if family is not None else None
    text_board = () if family is not None else tuple(edited.board_lines())
    lines = (editor.window(screen.text, screen.cursor), note or app._t("edit-help"))
    corner = f"{screen.cursor + 1}/{len(screen.text)}"
    return BoardScreen(header, grid, corner=corner, lines=lines, text_board=text_board)


def _stats(app: App, screen: Stats) -> View:
    title, lines = screen.pages[min(screen.page, len(screen.pages) - 1)]
    return MessageScreen(title, lines)


def _game_over(app: App, screen: GameOver) -> View:
    game = app._game()
    winner = game.winner()
    who = _side_name(app, winner)
    family = app.family()
    counts = family.counts(game, app.lang) if family is not None else ""
    lines = tuple(line for line in (app._t("wins", who=who), counts) if line)
    return MessageScreen(app._t("game-over"), lines, footer=app._t("hint-over"))


def _side_name(app: App, winner: int | None) -> str:
    """The winner as the game names its sides: a winning move keeps the turn (Senet), so
    the side to play is the winner's; other families may differ."""
    game = app._game()
    if winner is not None and game.position.turn == winner:
        return game.turn_label(app.lang)
    return f"#{(winner or 0) + 1}"


def _menu(app: App, screen: Menu) -> View:
    items = tuple(label for label, _ in app.menu_items())
    return MenuScreen(app._t("menu"), items, min(screen.cursor, len(items) - 1))


def _settings(app: App, screen: SettingsMenu) -> View:
    items = tuple(label for label, _ in app.settings_items())
    return MenuScreen(app._t("settings"), items, min(screen.cursor, len(items) - 1))


def _calibrating(app: App, screen: Calibrating) -> View:
    if screen.waiting:
        return MessageScreen(app._t("calibrate"), (app._t("camera-looking"),))
    lines = (app._t("calibrate-empty"),)
    return MessageScreen(app._t("calibrate"), lines, footer=app._t("calibrate-keys"))


def _enrol_choice(app: App, screen: EnrolChoice) -> View:
    items = tuple(app._t(enrolment.taught.text("enrol")) for enrolment in screen.choices)
    return MenuScreen(app._t("enrol-choice"), items, screen.cursor)


def _enrolling(app: App, screen: Enrolling) -> View:
    taught = screen.taught
    if screen.done:
        return MessageScreen(app._t(taught.text("enrol")), (app._t(taught.text("enrol-learning")),))
    steps = taught.pictures
    title = app._t(taught.text("enrol-title"), step=screen.step + 1, steps=steps)
    if screen.waiting:
        return MessageScreen(title, (app._t("camera-looking"),))
    shown = taught.shown(screen.step)
    if taught is Taught.D4:
        instruction = app._t("enrol-value-d4", value=shown)
    elif taught is Taught.YESNO:
        instruction = app._t("enrol-yes-yesno" if shown == "M" else "enrol-no-yesno")
    else:
        face_key = "enrol-marked" if shown == "M" else "enrol-plain"
        instruction = app._t(face_key, sticks=screen.count)
    return MessageScreen(title, (instruction,), footer=app._t("enrol-keys"))


def _confirm(app: App, screen: ConfirmShutdown) -> View:
    return MessageScreen(app._t("confirm-shutdown"), (app._t("confirm-lines"),))


def _message(app: App, screen: Message) -> View:
    return MessageScreen(screen.title, screen.lines, footer=app._t("ok-continue"))


def _saver(app: App, screen: Saver) -> View:
    step = int(app.now // SAVER_STEP)
    return BlankScreen(dot=((step * 37) % 128, (step * 23) % 64))


def _goodbye(app: App, screen: Goodbye) -> View:
    return MessageScreen(app._t("goodbye"), (app._t("goodbye-line"),))


_VIEWS: dict[type[Any], Callable[[App, Any], View]] = {
    AwaitThrow: _await_throw,
    ThrowShown: _throw_shown,
    Choosing: _choosing,
    Why: _why,
    GameOver: _game_over,
    Menu: _menu,
    Setup: _setup,
    Thinking: _thinking,
    SphinxMove: _sphinx_move,
    Hints: _hints,
    Stats: _stats,
    Editor: _editor,
    SettingsMenu: _settings,
    Calibrating: _calibrating,
    Enrolling: _enrolling,
    EnrolChoice: _enrol_choice,
    ConfirmShutdown: _confirm,
    Message: _message,
    Saver: _saver,
    Goodbye: _goodbye,
}
