"""A Mehen position and what it says about the seats: pieces, scores, who moves next.

Kept apart from the game class so that the notation (``mehen_notation``) and the game
(``mehen``) can both use it.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.notation import squares_holding

# Seats in seating order: the colour each takes, its letter in the notation (upper case
# for its predator), and its names.
LETTERS = "rbgywk"
COLOURS = ("red", "blue", "green", "yellow", "white", "black")
COLOURS_FR = ("rouge", "bleu", "vert", "jaune", "blanc", "noir")
SIDES_FR = ("les rouges", "les bleus", "les verts", "les jaunes", "les blancs", "les noirs")
EMPTY = "."
PREDATOR = "p"  # the kind of a predator's move: p88-82
WAITING = 0  # a predator's square while it waits on the centre, not yet released (M8)
GONE = -1  # a predator's square once it has left the board past the tail (M9)
TAIL = 1


@dataclass(frozen=True)
class MehenPosition:
    """Everything a Mehen ruling depends on.

    ``board`` has one character per square (square n at index n-1): ``.`` or the letter
    of the piece there, lower case for a simple piece, upper case for a predator. The
    tail (square 1) and the centre (the last square) hold several pieces: their
    characters stay ``.`` and ``tail``/``centre`` count each seat's simple pieces there.
    ``predators`` gives each seat's predator square (the tail and the centre included),
    or WAITING or GONE; ``eaten`` the letters of the pieces each seat's predator ate.
    """

    length: int
    board: str
    tail: tuple[int, ...]
    centre: tuple[int, ...]
    predators: tuple[int, ...]
    to_enter: tuple[int, ...]
    eaten: tuple[str, ...]
    turn: int
    throw: int | None
    agreed: bool = False  # the players ended the game by agreement (M10)

    @property
    def players(self) -> int:
        return len(self.to_enter)

    def with_turn(self, turn: int, throw: int | None) -> MehenPosition:
        """The same pieces with another seat to act or throw pending (shares derived data)."""
        position = MehenPosition(
            self.length,
            self.board,
            self.tail,
            self.centre,
            self.predators,
            self.to_enter,
            self.eaten,
            turn,
            throw,
            self.agreed,
        )
        position.__dict__[_DERIVED] = self._derived()
        return position

    # Data derived from the pieces alone (not from the turn or the throw) is computed once
    # and shared by with_turn; kept in the instance dictionary (cached_property takes a lock).
    def _derived(self) -> dict[str, object]:
        derived: dict[str, object] | None = self.__dict__.get(_DERIVED)
        if derived is None:
            derived = self.__dict__[_DERIVED] = {}
        return derived

    def track_squares(self, seat: int) -> tuple[int, ...]:
        """Squares strictly between the tail and the centre holding the seat's simple pieces."""
        derived = self._derived()
        squares = derived.get(LETTERS[seat])
        if squares is None:
            squares = derived[LETTERS[seat]] = squares_holding(self.board, LETTERS[seat])
        assert isinstance(squares, tuple)
        return squares

    def pieces_in_play(self, seat: int) -> int:
        """The seat's simple pieces on the board, tail and centre included."""
        return self.tail[seat] + self.centre[seat] + self.board.count(LETTERS[seat])

    def score(self, seat: int) -> int:
        """M10: own simple pieces still in play plus the pieces the seat's predator ate."""
        return self.pieces_in_play(seat) + len(self.eaten[seat])

    def can_release(self, seat: int) -> bool:
        """Whether a waiting predator can still be released: a simple piece of the seat can
        still come to the centre (it waits to enter or is on the way)."""
        return bool(self.to_enter[seat] or self.tail[seat]) or LETTERS[seat] in self.board

    def can_ever_move(self, seat: int) -> bool:
        """M2: whether the seat has anything left that can ever move."""
        return self.predators[seat] >= TAIL or self.can_release(seat)

    def finished(self) -> bool:
        """M10: every predator has left the board or can never be released."""
        derived = self._derived()
        finished = derived.get(_FINISHED)
        if finished is None:
            predators = self.predators
            finished = derived[_FINISHED] = all(
                predators[seat] == GONE
                or (predators[seat] == WAITING and not self.can_release(seat))
                for seat in range(self.players)
            )
        return bool(finished)

    def is_over(self) -> bool:
        return self.agreed or self.finished()


_DERIVED = "derived_"
_FINISHED = "finished"


def next_seat(position: MehenPosition, start: int) -> tuple[int, list[int]]:
    """M2: the first seat from ``start`` on, in seating order, that can still move, and
    the seats skipped on the way."""
    players = position.players
    skipped: list[int] = []
    for step in range(players):
        seat = (start + step) % players
        if position.can_ever_move(seat):
            return seat, skipped
        skipped.append(seat)
    return start % players, []  # nobody can move: the game is over (M10)


def seat_name(seat: int, lang: str = "en") -> str:
    """The colour a seat plays, as the players call it."""
    return SIDES_FR[seat] if lang == "fr" else COLOURS[seat]


def result_texts(position: MehenPosition) -> dict[str, str]:
    """Scores and result in English and French, as details for the end rulings."""
    seats = range(position.players)
    scores = [position.score(seat) for seat in seats]
    best = max(scores)
    top = [seat for seat in seats if scores[seat] == best]
    if len(top) == 1:
        result = f"{COLOURS[top[0]]} wins"
        result_fr = f"{SIDES_FR[top[0]]} gagnent"
    else:
        result = "draw: " + ", ".join(COLOURS[seat] for seat in top)
        result_fr = "égalité : " + ", ".join(SIDES_FR[seat] for seat in top)
    return {
        "scores": ", ".join(f"{COLOURS[seat]} {scores[seat]}" for seat in seats),
        "scores_fr": ", ".join(f"{COLOURS_FR[seat]} {scores[seat]}" for seat in seats),
        "result": f"{result} ({best})",
        "result_fr": f"{result_fr} ({best})",
    }
