"""``companion play``: a terminal session for people playing on a real board.

Type the throw you see (faces such as ``MMPP``, a score, or ``r`` for a random throw),
read the score and whether you throw again, pick the move you made, undo, ask why a
move is not allowed. The game is saved after every action and resumed next time.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion import games, savefile, throwlog
from companion.core import PASS, Move, RaceGame, RuleSet
from companion.errors import CompanionError, NotationError, SaveFileError
from companion.notation import is_number
from companion.rules import Ruling
from companion.throws import Throw

if TYPE_CHECKING:
    from companion.sphinx import Sphinx

AnyGame = RaceGame[Any]

HELP = """\
Commands:
  MMPP, 3, r      the throw you see (faces, score) or r for a random throw
  1, 2, ... or 14-18   the move you made (number from the list, or its notation)
  pay-6           before throwing: a move made instead of the throw (Ur: pay to enter)
  end             (Mehen, before a throw) the players agree to end the game
  why 14-18       may this move be played with the throw? which rule decides?
  hint            what would the Sphinx play? the best moves and what they are worth
  (Enter)         on the Sphinx's turn: you made its move on the board
  undo            take back the last throw or move
  board           show the board        position   show the position notation
  new             start a new game      quit       leave (the game is saved)"""


class Session:
    """One game at the table; ``ask`` reads a line, ``say`` prints one."""

    def __init__(
        self,
        game: AnyGame,
        start: str,
        save_path: Path,
        *,
        lang: str,
        rng: random.Random,
        ask: Callable[[str], str],
        say: Callable[[str], None],
        throw_log: Path | None = None,
        sphinx: SphinxSeats | None = None,
    ) -> None:
        self.game = game
        self.sphinx = sphinx  # the sides the companion plays, if any
        self._plan: tuple[str, Move | None] | None = None  # the Sphinx's decision, by position
        self.throw_log = throw_log  # typed throws are appended here, for 'companion stats'
        self.rules = game.rules  # sets up new games (may carry options the save lacks)
        self.start = start
        self.save_path = save_path
        self.lang = lang
        self.rng = rng
        self.ask = ask
        self.say = say

    def run(self) -> int:
        self.say(HELP)
        self.show_board()
        while True:
            if self.game.is_over():
                self.say(f"Game over: {self.game.result_text()}. Type 'undo', 'new' or 'quit'.")
            planned = self._sphinx_plan()
            prompt = self._prompt(planned)
            try:
                line = self.ask(prompt).strip()
            except EOFError:
                self.say("")
                return 0
            if line in ("quit", "q", "exit"):
                self.say(f"Saved in {self.save_path}.")
                return 0
            try:
                if planned is not None and line in ("", "ok", "done"):
                    self._play_planned(planned)
                elif line:
                    self.handle(line)
            except CompanionError as error:
                self.say(f"  {error}")

    def handle(self, line: str) -> None:
        word, _, rest = line.partition(" ")
        if word in ("help", "?"):
            self.say(HELP)
        elif word == "board":
            self.show_board()
        elif word == "position":
            self.say(f"  {self.game.fen()}")
        elif word == "undo":
            self.say(f"  undone: {self.game.pop()}")
            self.save()
            self.show_board()
        elif word == "hint":
            self.hint()
        elif word == "why":
            self.why(rest)
        elif word == "new":
            self.game = self.rules.game()
            self.start = self.game.fen()
            self.save()
            self.show_board()
        elif self.game.position.throw is None:
            self.throw_or_move(line)
        else:
            self.move(line)

    def throw_or_move(self, text: str) -> None:
        """With no throw pending: the throw seen, or a move made instead of throwing."""
        try:
            self.throw(text)
        except NotationError as not_a_throw:
            try:
                Move.parse(text)
            except NotationError:
                raise not_a_throw from None
            self.move(text)

    def throw(self, text: str) -> None:
        game = self.game
        typed = text not in ("r", "random")
        throw = game.rules.parse_throw(text) if typed else game.random_throw(self.rng)
        game.throw(throw)
        self.save()
        if typed and self.throw_log is not None:
            throwlog.record(self.throw_log, game.rules.name, throw, source="typed")
        consequence = game.rules.throw_consequence(throw)
        self.say(f"  {throw_label(throw)}: {consequence} after the move")
        self.list_moves()

    def list_moves(self) -> None:
        moves = self.game.legal_moves()
        if moves == [PASS]:
            ruling = self.game.explain(PASS).deciding
            self.say(f"  no move: {ruling.short(self.lang)} [{ruling.rule.id}] (type 1 or 'pass')")
            return
        entries = [(f"{n}. {move}", self._what_it_does(move)) for n, move in enumerate(moves, 1)]
        if len(entries) <= COMPACT_FROM:
            for name, does in entries:
                self.say(f"  {name}  {does}")
            return
        # Many moves (two dice: pairs): plain moves in columns, the others on their own line.
        self.say(f"  {len(entries)} moves:")
        width = max(len(name) for name, _ in entries) + 2
        columns = max(1, LINE_WIDTH // width)
        row: list[str] = []
        for name, does in entries:
            if does:
                self._say_row(row)
                self.say(f"  {name}  {does}")
                continue
            row.append(name.ljust(width))
            if len(row) == columns:
                self._say_row(row)
        self._say_row(row)

    def _say_row(self, row: list[str]) -> None:
        if row:
            self.say("  " + "".join(row).rstrip())
            row.clear()

    def move(self, text: str) -> None:
        moves = self.game.legal_moves()
        if is_number(text) and 1 <= int(text) <= len(moves):
            move = moves[int(text) - 1]
        else:
            move = Move.parse(text)
        effects = self.game.push(move)
        self.save()
        for ruling in effects:
            if ruling.rule.key != PLAIN_MOVE:
                self.say(f"  {ruling.short(self.lang)} [{ruling.rule.id}]")
        self.show_board()

    def why(self, text: str) -> None:
        if not text:
            self.say("  why which move? e.g. 'why 14-18'")
            return
        explanation = self.game.explain(Move.parse(text))
        verdict = "allowed" if explanation.legal else "not allowed"
        ruling = explanation.deciding
        self.say(f"  {text}: {verdict}. {ruling.long(self.lang)}")
        self.say(f"  rule {ruling.rule.id}: {ruling.source(self.lang)}")
        if ruling.rule.quote:
            self.say(f"  « {ruling.rule.quote} »")

    def hint(self) -> None:
        from companion.sphinx import Sphinx

        if not self.game.legal_moves():
            self.say("  throw first: a hint is for the throw you have")
            return
        hints = Sphinx(self.game.rules).hints(self.game)
        for hint in hints[:HINTS_SHOWN]:
            self.say(f"  {hint.move}  expected {hint.value:+.1f}  {self._what_it_does(hint.move)}")

    def show_board(self) -> None:
        for line in self.game.board_lines():
            self.say(f"  {line}")
        if self.game.position.throw is None:  # moves that may replace the throw
            for move in self.game.legal_moves():
                self.say(f"  instead of throwing: {move}  {self._what_it_does(move)}")

    def save(self) -> None:
        savefile.save(self.game, self.save_path, self.start)

    def _what_it_does(self, move: Move) -> str:
        effects: tuple[Ruling, ...] = self.game.explain(move).rulings
        return "; ".join(r.short(self.lang) for r in effects if r.rule.key not in _QUIET_KEYS)

    def _prompt(self, planned: Move | None = None) -> str:
        who = self.game.turn_label(self.lang)
        if self._sphinx_to_play():
            who += ", Sphinx"
        if planned is not None:
            return f"[{who}] Enter once {planned} is made> "
        if self.game.position.throw is None:
            return f"[{who}] throw> "
        return f"[{who}, {self.game.position.throw}] move> "

    # ----- the Sphinx's turns -----------------------------------------------------------
    def _sphinx_to_play(self) -> bool:
        return (
            self.sphinx is not None
            and not self.game.is_over()
            and self.game.position.turn in self.sphinx.sides
        )

    def _sphinx_plan(self) -> Move | None:
        """On the Sphinx's turn: the move it asks the players to make for it (said once
        per position), or None when it waits for its throw."""
        if self.sphinx is None or not self._sphinx_to_play():
            return None
        fen = self.game.fen()
        if self._plan is None or self._plan[0] != fen:
            self._plan = (fen, self._sphinx_decides(self.sphinx.player))
        return self._plan[1]

    def _sphinx_decides(self, player: Sphinx) -> Move | None:
        game = self.game
        if game.position.throw is None:
            instead, option = player.before_throw(game)
            if instead is None:
                self._ask_for_the_sphinx_throw(option)
                return None
            self.say(
                f"  The Sphinx plays {instead} instead of throwing. {self._what_it_does(instead)}"
            )
            return instead
        move = player.choose(game)
        if move == PASS:
            self.say("  The Sphinx cannot move: press Enter to pass the hand.")
        else:
            does = self._what_it_does(move)
            self.say(
                f"  The Sphinx plays {move}{': ' + does if does else ''}. Make it on the board."
            )
        return move

    def _ask_for_the_sphinx_throw(self, option: str) -> None:
        if len(self.game.throw_options(self.game.position)) > 1:
            self.say(f"  Throw for the Sphinx ({option}) and type what you see.")
        else:
            self.say("  Throw for the Sphinx and type what you see.")

    def _play_planned(self, move: Move) -> None:
        self._plan = None
        self.move(str(move))


HINTS_SHOWN = 3


@dataclass(frozen=True)
class SphinxSeats:
    """The sides the companion plays (turn numbers, from 0) and the player it uses."""

    sides: frozenset[int]
    player: Sphinx


def throw_label(throw: Throw) -> str:
    """The throw as read, with its score when the reading does not show it: 3+yes (7)."""
    shown = str(throw)
    return shown if throw.dice or shown == str(throw.score) else f"{shown} ({throw.score})"


PLAIN_MOVE = "distance"  # the ruling of an ordinary move: not worth repeating
COMPACT_FROM = 12  # more moves than this are listed compactly
LINE_WIDTH = 76
_QUIET_KEYS = frozenset({PLAIN_MOVE, "extra-throw", "hand-passes"})


def run_session(
    game: str | RuleSet,
    *,
    new: bool = False,
    save: str | None = None,
    lang: str = "en",
    seed: int | None = None,
    ask: Callable[[str], str] = input,
    say: Callable[[str], None] = print,
    sphinx: Sequence[int] = (),
    level: str = "normal",
) -> int:
    """Start or resume a game and play it until the players quit.

    ``game`` is a rule set or its name; a rule set with options (``players=4``) sets up
    new games, and a saved game resumes as saved. ``sphinx`` lists the sides (from 1)
    the companion plays, at ``level``.
    """
    rules = games.get(game) if isinstance(game, str) else game
    path = Path(save) if save else savefile.default_path(rules.name)
    started, start = _start_or_resume(rules, path, new, say)
    # The sides are those of the game played: a resumed game keeps its own players.
    seats = sphinx_seats(started.rules, sphinx, level, seed) if sphinx else None
    session = Session(
        started,
        start,
        path,
        lang=lang,
        rng=random.Random(seed),
        ask=ask,
        say=say,
        throw_log=path.parent / throwlog.default_path().name,  # beside the save
        sphinx=seats,
    )
    session.rules = rules
    return session.run()


def sphinx_seats(rules: RuleSet, sides: Sequence[int], level: str, seed: int | None) -> SphinxSeats:
    """The Sphinx for ``sides`` (numbered from 1, as the players count them)."""
    from companion.sphinx import Level, Sphinx

    players = rules.players
    wrong = [side for side in sides if not 1 <= side <= players]
    if wrong:
        raise NotationError(f"--sphinx {wrong[0]}: {rules.name} has sides 1 to {players}")
    levels = [member.value for member in Level]
    if level not in levels:
        raise NotationError(f"level {level!r}: choose one of {', '.join(levels)}")
    if len(set(sides)) == players:
        raise NotationError("the Sphinx cannot play every side: leave one to the people")
    player = Sphinx(rules, level=Level(level), seed=seed)
    return SphinxSeats(frozenset(side - 1 for side in sides), player)


def _start_or_resume(
    rules: RuleSet, path: Path, new: bool, say: Callable[[str], None]
) -> tuple[AnyGame, str]:
    name = rules.name
    if path.exists() and not new:
        try:
            game, start = savefile.load(path)
        except SaveFileError as error:
            kept = savefile.set_aside(path)
            say(f"{error}\nIt was kept as {kept}; starting a new game.")
        else:
            if game.rules.name == name:
                say(f"Resumed the saved game from {path} ('new' starts over).")
                return game, start
            say(f"{path} holds a game of {game.rules.name}, not {name}; starting a new game.")
    game = rules.game()
    return game, game.fen()
