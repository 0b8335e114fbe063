"""ur-finkel and ur-masters as data: parameters, and every rule with its basis and texts.

Neither rule set comes from the French seeds: ``DECISIONS.md`` ("Beyond the sources")
defines both as the MIT-licensed ``royalur`` package, version 0.0.6, defines them, so every
rule is cited as that decision and the royalur behaviour it follows. The ids R1-R10 are ours
(this family's own numbering); T1 is the turn rule shared by every rule set.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.royal import WHITE, BinaryDice, RoyalUr, RoyalUrRules
from companion.rules import Basis, Rule, RuleBook

DECISION = Basis.DECISION

ROSETTES = frozenset({"A1", "A3", "D2", "G1", "G3"})  # DECISIONS.md U1 (a)
_MIDDLE = tuple(f"{column}2" for column in "ABCDEFGH")
_WHITE_START = ("D1", "C1", "B1", "A1")
_BLACK_START = ("D3", "C3", "B3", "A3")
# Bell's path (royalur BellPathPair): 4 own squares, the 8 of the middle row, 2 own squares.
BELL_WHITE = (*_WHITE_START, *_MIDDLE, "H1", "G1")
BELL_BLACK = (*_BLACK_START, *_MIDDLE, "H3", "G3")
# The Masters path of U1 (a) (royalur MastersPathPair): the middle row to G2, then round the
# far end through the other side's corner: white's 12-16 are black's 16-12.
MASTERS_WHITE = (*_WHITE_START, *_MIDDLE[:7], "G3", "H3", "H2", "H1", "G1")
MASTERS_BLACK = (*_BLACK_START, *_MIDDLE[:7], "G1", "H1", "H2", "H3", "G3")

FOUR_BINARY_DICE = BinaryDice(sticks=4, scores=(0, 1, 2, 3, 4), extra=frozenset())


@dataclass(frozen=True)
class _Facts:
    """What the texts of one rule set say about it."""

    name: str
    settings: str  # the royalur settings it follows
    length: int
    path_fr: str
    path_en: str
    safe: bool

    def cite(self, what: str) -> str:
        return (
            f'DECISIONS.md, "Beyond the sources" ({self.name}); royalur 0.0.6, '
            f"{self.settings}: {what}"
        )


FINKEL = _Facts(
    "ur-finkel",
    "GameSettings.create_finkel",
    14,
    "le chemin de Bell, 14 cases : blancs D1 C1 B1 A1, A2 à H2, H1 G1 ; noirs de même sur "
    "la rangée 3",
    "Bell's path, 14 squares: white D1 C1 B1 A1, A2 to H2, H1 G1; black the same on row 3",
    safe=True,
)
MASTERS = _Facts(
    "ur-masters",
    "GameSettings.create_masters",
    16,
    "le chemin de Masters, 16 cases : blancs D1 C1 B1 A1, A2 à G2, G3 H3 H2 H1 G1 ; noirs "
    "D3 C3 B3 A3, A2 à G2, G1 H1 H2 H3 G3",
    "the Masters path, 16 squares: white D1 C1 B1 A1, A2 to G2, G3 H3 H2 H1 G1; black D3 C3 "
    "B3 A3, A2 to G2, G1 H1 H2 H3 G3",
    safe=False,
)


def _rule(
    facts: _Facts,
    key: str,
    rule_id: str,
    what: str,
    short: tuple[str, str],
    long: tuple[str, str],
    *,
    allowed: tuple[tuple[str, str], tuple[str, str]] | None = None,
) -> Rule:
    """A rule of ours with (fr, en) texts, and others for allowing where they differ."""
    short_allowed, long_allowed = allowed or (("", ""), ("", ""))
    return Rule(
        key=key,
        id=rule_id,
        basis=DECISION,
        citation=facts.cite(what),
        short={"fr": short[0], "en": short[1]},
        long={"fr": long[0], "en": long[1]},
        short_allowed={"fr": short_allowed[0], "en": short_allowed[1]} if allowed else {},
        long_allowed={"fr": long_allowed[0], "en": long_allowed[1]} if allowed else {},
    )


def _turn_rules(facts: _Facts) -> list[Rule]:
    """T1, and R8: here the move, not the throw's value, gives another throw."""
    return [
        Rule(
            key="pass",
            id="T1",
            basis=DECISION,
            citation=f"DECISIONS.md T1; {facts.cite('a roll with no available move passes')}",
            short={"fr": "Un coup existe : il faut jouer.", "en": "A move exists: you must play."},
            long={
                "fr": "Passer n'est permis que si le lancer ne permet aucun coup ; ici un coup "
                "existe.",
                "en": "Passing is allowed only when the throw allows no move; here a move exists.",
            },
            short_allowed={
                "fr": "Aucun coup possible : main suivante.",
                "en": "No move possible: pass the hand.",
            },
            long_allowed={
                "fr": "Le lancer ne permet aucun coup (un 0 n'en permet jamais) : la main passe "
                "à l'adversaire.",
                "en": "The throw allows no move (a 0 never does): the hand passes to the opponent.",
            },
            decision="T1",
        ),
        _rule(
            facts,
            "extra-throw",
            "R8",
            "landing on a rosette grants another roll",
            ("Rosette {cell} : rejouez.", "Rosette {cell}: throw again."),
            (
                "Le pion s'arrête sur une rosette (case {square}, {cell}) : le même joueur "
                "relance. C'est le coup, pas la valeur du lancer, qui donne ce lancer.",
                "The piece stops on a rosette (square {square}, {cell}): the same player throws "
                "again. The move, not the throw's value, gives this throw.",
            ),
        ),
        _rule(
            facts,
            "hand-passes",
            "R8",
            "no extra roll unless the move lands on a rosette",
            ("Pas de rosette : main suivante.", "No rosette: pass the hand."),
            (
                "Le pion ne s'arrête pas sur une rosette : la main passe à l'adversaire, quel "
                "que soit le lancer ({throw}).",
                "The piece does not stop on a rosette: the hand passes to the opponent, "
                "whatever the throw ({throw}).",
            ),
        ),
    ]


def _piece_rules(facts: _Facts) -> list[Rule]:
    """R1-R5: pieces, throw, track, entering, one piece per square."""
    return [
        _rule(
            facts,
            "pieces",
            "R1",
            "7 starting pieces each, off the board; light (white) plays first",
            ("7 pions chacun, hors du plateau.", "7 pieces each, all off the board."),
            (
                "Chaque camp a 7 pions, tous hors du plateau au départ ; les blancs lancent "
                "les premiers.",
                "Each side has 7 pieces, all off the board at the start; white throws first.",
            ),
        ),
        _rule(
            facts,
            "distance",
            "R2",
            "four binary dice; a piece moves exactly the number rolled",
            ("Un {throw} avance un pion de {throw} cases.", "A {throw} moves one piece {throw}."),
            (
                "Quatre dés binaires : le nombre de pointes marquées visibles fait avancer un "
                "seul pion d'exactement autant de cases sur sa piste ({throw} ici).",
                "Four binary dice: the number of marked tips up moves one piece exactly that "
                "many squares along its own track ({throw} here).",
            ),
        ),
        _rule(
            facts,
            "zero",
            "R2",
            "a roll of 0 has no available move",
            ("Un 0 ne déplace aucun pion.", "A 0 moves nothing."),
            (
                "Aucune pointe marquée : le lancer vaut 0 et ne déplace aucun pion ; la main "
                "passe (T1).",
                "No marked tip up: the throw is 0 and moves no piece; the hand passes (T1).",
            ),
        ),
        _rule(
            facts,
            "track",
            "R3",
            f"the paths of {facts.length} squares",
            (
                "Pas de case {square} : la piste va de 1 à {length}.",
                "No square {square}: the track is 1-{length}.",
            ),
            (
                f"Chaque camp suit sa propre piste, {facts.path_fr}. Il n'y a pas de case "
                "{square}.",
                f"Each side follows its own track, {facts.path_en}. There is no square {{square}}.",
            ),
        ),
        _rule(
            facts,
            "enter",
            "R4",
            "a piece enters on the path square equal to the roll",
            (
                "Un {throw} entre en {throw}, pas en {square}.",
                "A {throw} enters on {throw}, not {square}.",
            ),
            (
                "Un pion entre sur la case de sa piste égale au lancer : avec {throw}, la case "
                "{throw}, pas la case {square}.",
                "A piece enters on the square of its track equal to the throw: with {throw}, "
                "square {throw}, not square {square}.",
            ),
            allowed=(
                (
                    "Un {throw} fait entrer un pion en {square}.",
                    "A {throw} enters a piece on {square}.",
                ),
                (
                    "Un pion qui attend hors du plateau entre sur la case {square} de sa piste, "
                    "la valeur du lancer.",
                    "A piece waiting off the board enters on square {square} of its track, the "
                    "value of the throw.",
                ),
            ),
        ),
        _rule(
            facts,
            "none-waiting",
            "R4",
            "a piece can be introduced only while the player has pieces off the board",
            ("Aucun pion n'attend d'entrer.", "No piece of yours waits to enter."),
            (
                "Seul un pion hors du plateau (pas encore entré, ou pris) peut entrer ; vous "
                "n'en avez aucun.",
                "Only a piece off the board (not yet entered, or captured) can enter; you have "
                "none.",
            ),
        ),
        _rule(
            facts,
            "not-your-piece",
            "R5",
            "only the player's own pieces move",
            ("Pas de pion à vous en {square}.", "No piece of yours on square {square}."),
            (
                "Un coup déplace un pion du joueur qui a lancé ; la case {square} de sa piste "
                "n'en porte pas.",
                "A move carries a piece of the player who threw; square {square} of their track "
                "holds none.",
            ),
        ),
        _rule(
            facts,
            "own-piece",
            "R5",
            "a piece cannot land on its owner's piece",
            ("{square} occupé par votre pion.", "{square} holds your own piece."),
            (
                "Un seul pion par case : un pion ne peut pas s'arrêter sur la case {square}, "
                "occupée par un pion de son camp.",
                "One piece per square: a piece cannot stop on square {square}, which holds a "
                "piece of its own side.",
            ),
        ),
    ]


def _capture_rules(facts: _Facts) -> list[Rule]:
    """R6 capture, R7 rosettes (safe in ur-finkel, not in ur-masters)."""
    rules = [
        _rule(
            facts,
            "capture",
            "R6",
            "landing on an enemy piece captures it",
            ("Prise en {cell} : le pion adverse sort.", "Capture on {cell}: enemy piece goes off."),
            (
                "Le pion adverse en {cell} (votre case {square}, sa case {theirs}) est pris : il "
                "retourne hors du plateau et devra entrer à nouveau.",
                "The enemy piece on {cell} (your square {square}, its square {theirs}) is "
                "captured: it goes back off the board and must enter again.",
            ),
        )
    ]
    # Both R7 rules are in both books, so that a house rule that flips safe_rosettes
    # (dataclasses.replace) still explains itself; the parameter says which one applies.
    safe_cite = "safe_rosettes" + (" (true here)" if facts.safe else " (false here)")
    rules += [
        _rule(
            facts,
            "rosette-safe",
            "R7",
            f"{safe_cite}: a piece on a rosette cannot be captured when rosettes are safe",
            ("{cell} est une rosette : pion protégé.", "{cell} is a rosette: that piece is safe."),
            (
                "Quand les rosettes protègent (ur-finkel), le pion adverse sur la case {square} "
                "({cell}) ne peut pas être pris, et un pion ne s'arrête pas sur une case occupée.",
                "Where rosettes are safe (ur-finkel), the enemy piece on square {square} "
                "({cell}) cannot be captured, and no piece stops on an occupied square.",
            ),
        ),
        _rule(
            facts,
            "rosette-capture",
            "R7",
            f"{safe_cite}: a piece on a rosette is captured like any other when they are not",
            ("Rosette {cell} : pas de protection.", "Rosette {cell}: no protection here."),
            (
                "Quand les rosettes ne protègent pas (ur-masters), le pion adverse sur la "
                "rosette {cell} est pris comme ailleurs.",
                "Where rosettes are not safe (ur-masters), the enemy piece on the rosette "
                "{cell} is captured like any other.",
            ),
        ),
    ]
    return rules


def _end_rules(facts: _Facts) -> list[Rule]:
    """R9 bearing off, R10 the win."""
    past = facts.length + 1
    return [
        _rule(
            facts,
            "bear-off",
            "R9",
            "a piece scores with the exact roll to one past the end of its path",
            ("Un {throw} sort le pion de {square}.", "A {throw} bears off the piece on {square}."),
            (
                "Un pion sort avec le lancer exact qui le mène une case après la fin de sa "
                f"piste (case {past}) : de la case {{square}}, un {{throw}}.",
                "A piece bears off with the exact throw that takes it one square past the end "
                f"of its track (square {past}): from square {{square}}, a {{throw}}.",
            ),
        ),
        _rule(
            facts,
            "exact-off",
            "R9",
            "no move past the end of the path except the exact roll to score",
            (
                "Sortir de {square} : il faut {need}, pas {throw}.",
                "Off from {square} needs {need}, not {throw}.",
            ),
            (
                "Un pion ne sort qu'avec le lancer exact qui le mène une case après la fin de sa "
                f"piste (case {past}) : de la case {{square}} il faut {{need}} ; un {{throw}} ne "
                "le peut pas.",
                "A piece bears off only with the exact throw that takes it one square past the "
                f"end of its track (square {past}): from square {{square}} that is {{need}}; a "
                "{throw} cannot.",
            ),
        ),
        _rule(
            facts,
            "win",
            "R10",
            "the first player to score all their pieces wins",
            ("Tous les pions sortis : victoire !", "All pieces off: this side wins!"),
            (
                "Le premier camp à sortir ses 7 pions gagne la partie.",
                "The first side to bear off all 7 pieces wins the game.",
            ),
        ),
    ]


def _rule_book(facts: _Facts) -> RuleBook:
    return RuleBook(
        [
            *_turn_rules(facts),
            *_piece_rules(facts),
            *_capture_rules(facts),
            *_end_rules(facts),
        ]
    )


UR_FINKEL = RoyalUrRules(
    name="ur-finkel",
    title="Royal Game of Ur, Finkel's rules (royalur 0.0.6: Bell's path, safe rosettes)",
    rules=_rule_book(FINKEL),
    throws=FOUR_BINARY_DICE,
    pieces=7,
    white_path=BELL_WHITE,
    black_path=BELL_BLACK,
    rosettes=ROSETTES,
    safe_rosettes=True,
    rosette_extra_throw=True,
    first=WHITE,
)

UR_MASTERS = RoyalUrRules(
    name="ur-masters",
    title="Royal Game of Ur, Masters' rules (royalur 0.0.6: 16 squares, rosettes not safe)",
    rules=_rule_book(MASTERS),
    throws=FOUR_BINARY_DICE,
    pieces=7,
    white_path=MASTERS_WHITE,
    black_path=MASTERS_BLACK,
    rosettes=ROSETTES,
    safe_rosettes=False,
    rosette_extra_throw=True,
    first=WHITE,
)

RoyalUrRules.family = RoyalUr
