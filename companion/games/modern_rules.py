"""The Senet-Modern rule set as data: parameters, and every rule with its source and texts.

Ids are those of ``DECISIONS.md`` (N1-N8; T2 for the hand passing); G1 is the source rule
that a player moves their own pieces. The French seed (LOGY GAMES' rules in translation)
covers N1-N3 and N6; N4 onward come from the publisher's English rules, cited as "LOGY
GAMES rules" with the decision id, and the parts DECISIONS.md marks as ours are ours here.
"""

from __future__ import annotations

from functools import partial

from companion.games.modern import DiceTable, Modern, ModernRules
from companion.rules import Basis, Rule, RuleBook, bilingual

SOURCE, DECISION = Basis.SOURCE, Basis.DECISION
SEED = "seed 004"
LOGY = "LOGY GAMES rules"
_TextPair = tuple[str, str]


_rule = partial(bilingual, decision_from_id=True)


_MOVES = f"{SEED}, « Options de déplacement »"
_DICE = f"{SEED}, « Lancer les dés »"


def _setup_and_dice() -> list[Rule]:
    return [
        _rule(
            "dice",
            "N1",
            SOURCE,
            _DICE,
            (
                "Avec {dice} : {counts} cases, pas {move}.",
                "With {dice}: {counts} squares, not {move}.",
            ),
            (
                "Avec {dice}, un pion avance de la valeur d'un dé ou de leur somme ({counts} "
                "cases, en revenant en arrière au-delà du but) : {move} ne correspond pas.",
                "With {dice}, a piece moves by one die or by their sum ({counts} squares, "
                "coming back from beyond the goal): {move} does not match.",
            ),
            quote="Les valeurs sur les dés lancés indiquent de combien de cases un pion se "
            "déplace.",
        ),
        _rule(
            "pieces",
            "N2",
            SOURCE,
            f"{SEED}, « Position de départ » and « Lancer les dés »; {LOGY} (N2)",
            (
                "Départ : 5,5,4,4,3,3,2,2,1,1 depuis le soleil.",
                "Start: 5,5,4,4,3,3,2,2,1,1 from the sun.",
            ),
            (
                "Les pions, numérotés de 1 à 5, sont placés en alternance à partir du soleil "
                "(case 1) : 5, 5, 4, 4, 3, 3, 2, 2, 1, 1 ; le joueur dont le pion est sur le "
                "soleil (ici les blancs) joue le premier. Aucun pion n'entre en cours de partie.",
                "The pieces, numbered 1 to 5, stand alternately from the sun (square 1): "
                "5, 5, 4, 4, 3, 3, 2, 2, 1, 1; the player whose piece is on the sun (here "
                "white) plays first. No piece enters during the game.",
            ),
            quote="Deux groupes de pions sont placés alternativement à partir de la case de "
            "départ n°1 (soleil) de la manière suivante : 5,5,4,4,3,3,2,2,1,1.",
        ),
        _rule(
            "not-your-piece",
            "G1",
            SOURCE,
            _DICE,
            ("Pas de pion à vous sur la case {square}.", "No piece of yours on square {square}."),
            (
                "Un tour déplace des pions du joueur qui a lancé ; la case {square} n'en porte "
                "pas.",
                "A turn moves pieces of the player who threw; square {square} holds none.",
            ),
            quote="chaque tour consistant en un lancer de deux dés, suivi du déplacement des "
            "pions de ce joueur.",
        ),
    ]


def _turn_rules() -> list[Rule]:
    return [
        _rule(
            "distance",
            "N3",
            SOURCE,
            _MOVES,
            ("{move} avec {dice} : permis.", "{move} with {dice}: allowed."),
            (
                "Un tour déplace un pion de la somme des dés, ou deux pions différents d'un dé "
                "chacun : {move} avec {dice}.",
                "A turn moves one piece by the sum of the dice, or two different pieces by one "
                "die each: {move} with {dice}.",
            ),
            quote="Deux pions sont déplacés, chacun utilisant la valeur d'un dé différent. Un "
            "seul pion est déplacé en fonction de la valeur combinée des deux dés.",
        ),
        _rule(
            "turn-shape",
            "N3",
            SOURCE,
            _MOVES,
            ("{move} n'est pas un tour de ce jeu.", "{move} is not a turn of this game."),
            (
                "Un tour déplace un pion de la somme des dés, ou deux pions différents d'un dé "
                "chacun ; {move} ne fait ni l'un ni l'autre.",
                "A turn moves one piece by the sum of the dice, or two different pieces by one "
                "die each; {move} is neither.",
            ),
            quote="Les pièces jouées peuvent être déplacées selon l'une des règles suivantes.",
        ),
        _rule(
            "same-piece",
            "N3",
            SOURCE,
            _MOVES,
            ("Un dé chacun : deux pions différents.", "One die each: two different pieces."),
            (
                "Les dés utilisés séparément déplacent deux pions différents ; le pion de la "
                "case {square} vient déjà de jouer. Pour avancer un pion de la somme, écrivez "
                "un seul déplacement ({sum_move}).",
                "Dice used separately move two different pieces; the piece on square {square} "
                "has just moved. To move one piece by the sum, write one step ({sum_move}).",
            ),
            quote="Deux pions sont déplacés, chacun utilisant la valeur d'un dé différent.",
        ),
        _rule(
            "own-piece",
            "N3",
            SOURCE,
            _MOVES,
            ("{square} porte déjà un de vos pions.", "{square} already holds your own piece."),
            (
                "Un pion ne peut pas s'arrêter sur la case {square}, occupée par un pion de son "
                "camp.",
                "A piece cannot stop on square {square}, which holds a piece of its own side.",
            ),
            quote="Les joueurs ne peuvent pas déplacer un pion sur la case où un de leur pion se "
            "trouve",
        ),
        _rule(
            "hit",
            "N3",
            SOURCE,
            _MOVES,
            ("{piece} pris en {square} : au soleil.", "{piece} hit on {square}: back to the sun."),
            (
                "Le pion adverse {piece} de la case {square} est pris : il retourne sur le "
                "soleil (case 1).",
                "The enemy piece {piece} on square {square} is hit: it goes back to the sun "
                "(square 1).",
            ),
            quote="mais ils peuvent le faire là où un pion adverse se trouve. Ce pion adverse "
            "doit alors retourner à la case de départ (soleil).",
        ),
        _rule(
            "sun-out",
            "N3",
            SOURCE,
            _MOVES,
            ("{piece}, sur le soleil, quitte la partie.", "{piece} on the sun leaves the game."),
            (
                "Un pion arrive sur le soleil, où se trouvait {piece} : {piece} est retiré du "
                "jeu pour le reste de la partie, quel que soit son camp.",
                "A piece arrives on the sun, where {piece} stood: {piece} leaves the game for "
                "good, whoever owns it.",
            ),
            quote="Lorsqu'un pion (quel que soit son propriétaire) est sur la case de départ, il "
            "doit être retiré du plateau. Ce pion est retiré du jeu pour le reste de la partie.",
        ),
        _rule(
            "choose-die",
            "N3",
            DECISION,
            "DECISIONS.md N3",
            (
                "Un seul dé jouable : {die} ou {other}, au choix.",
                "One die only: {die} or {other}, your choice.",
            ),
            (
                "Notre lecture : quand l'un ou l'autre dé peut servir mais pas les deux, le "
                "joueur choisit ; ici {die}, alors que {other} était possible aussi.",
                "Our reading: when either die but not both can be used, the player chooses; "
                "here {die}, although {other} was possible too.",
            ),
        ),
        _rule(
            "hand-passes",
            "T2",
            SOURCE,
            _DICE,
            ("Main à l'adversaire.", "The hand passes."),
            (
                "Le tour joué, la main passe à l'adversaire : aucun lancer ne fait rejouer.",
                "The turn is played and the hand passes to the opponent: no throw gives "
                "another turn.",
            ),
            quote="Les joueurs jouent chacun leur tour",
            decision="T2",
        ),
    ]


_N4 = f"{LOGY}; DECISIONS.md N4"
_N5 = f"{LOGY}; DECISIONS.md N5"


def _goal_and_special_squares() -> list[Rule]:
    return [
        _rule(
            "bear-off",
            "N4",
            SOURCE,
            _N4,
            ("{piece} sort et marque {score}.", "{piece} borne off: scores {score}."),
            (
                "Le pion {piece} atteint exactement le but, une case après 30 : il sort et "
                "marque son numéro, {score}.",
                "{piece} reaches the goal, one square past 30, exactly: it is borne off and "
                "scores its number, {score}.",
            ),
        ),
        _rule(
            "bounce",
            "N4",
            SOURCE,
            _N4,
            ("Au-delà du but : revient en {end}.", "Beyond the goal: comes back to {end}."),
            (
                "Le pion de la case {start} dépasse le but de {excess} : il l'atteint puis "
                "revient en arrière de {excess}, jusqu'à la case {end}.",
                "The piece on {start} overshoots the goal by {excess}: it reaches the goal and "
                "comes back {excess}, to square {end}.",
            ),
        ),
        _rule(
            "bear-off-exact",
            "N4",
            SOURCE,
            _N4,
            ("Sortir de {square} : {need} exactement.", "Off from {square} takes exactly {need}."),
            (
                "Un pion ne sort qu'en atteignant le but exactement ; de la case {square} il "
                "faut {need}, que les dés ({dice}) ne donnent pas (au-delà, le pion revient en "
                "arrière).",
                "A piece bears off only by reaching the goal exactly; from square {square} that "
                "takes {need}, which the dice ({dice}) do not give (a longer count comes back).",
            ),
        ),
        _rule(
            "bounce-own-piece",
            "N4",
            SOURCE,
            _N4,
            ("Retour sur {square} : votre pion y est.", "Comes back onto your piece on {square}."),
            (
                "Revenant en arrière après le but, le pion finirait sur la case {square}, "
                "occupée par un pion de son camp : interdit.",
                "Coming back from the goal, the piece would end on square {square}, which "
                "holds a piece of its own side: not allowed.",
            ),
        ),
        _rule(
            "moon",
            "N5",
            SOURCE,
            _N5,
            ("{square}, la lune : retour au soleil.", "{square}, the moon: back to the sun."),
            (
                "Le pion {piece} s'arrête sur la lune (case {square}) : il retourne sur le "
                "soleil (case 1).",
                "{piece} stops on the moon (square {square}): it goes back to the sun (square 1).",
            ),
        ),
        _rule(
            "bird",
            "N5",
            SOURCE,
            _N5,
            ("{square}, l'oiseau : vole en {landing}.", "{square}, the bird: flies to {landing}."),
            (
                "Le pion {piece} s'arrête sur l'oiseau (case {square}) : il est envoyé en "
                "{landing} ; un pion adverse qui s'y trouve est pris.",
                "{piece} stops on the bird (square {square}): it is sent to square {landing}; "
                "an enemy piece there is hit.",
            ),
        ),
        _rule(
            "bird-nearest",
            "N5",
            DECISION,
            "DECISIONS.md N5",
            (
                "{target} est à vous : l'oiseau mène en {landing}.",
                "{target} is yours: the bird goes to {landing}.",
            ),
            (
                "Notre lecture : l'oiseau envoie en {target}, mais un pion du même camp y est ; "
                "le pion va sur la case libre la plus proche avant {target} : {landing}.",
                "Our reading: the bird sends a piece to {target}, but a piece of its side is "
                "there; it goes to the nearest free square before {target}: {landing}.",
            ),
        ),
        _rule(
            "no-hit-special",
            "N5",
            SOURCE,
            _N5,
            ("Pas de prise en {square} depuis {start}.", "No hit on {square} from {start}."),
            (
                "Un pion venant d'en dehors des cases 26 à 30 ne peut pas prendre un pion qui "
                "s'y trouve : le pion adverse de la case {square} est à l'abri du pion de la "
                "case {start}.",
                "A piece coming from outside squares 26-30 cannot hit a piece on them: the "
                "enemy on square {square} is safe from the piece on {start}.",
            ),
        ),
        _rule(
            "must-move",
            "N5",
            DECISION,
            f"{LOGY}; DECISIONS.md N5 (« if it can » is ours)",
            ("Un pion sur 26-30 doit jouer : {example}.", "A piece on 26-30 must move: {example}."),
            (
                "Un pion sur les cases 26 à 30 doit être joué au tour suivant de son camp s'il "
                "le peut (notre lecture : parmi les tours que les dés permettent, N7, un de ceux "
                "qui en déplacent le plus) ; par exemple {example}.",
                "A piece on squares 26-30 must be moved on its owner's next turn if it can "
                "(our reading: among the turns the dice allow, N7, one that moves the most of "
                "them); for example {example}.",
            ),
        ),
    ]


def _end_rules() -> list[Rule]:
    return [
        _rule(
            "one-die-throw",
            "N6",
            SOURCE,
            f"{_DICE}; {LOGY} (N6)",
            ("Un seul dé : seulement avec un pion.", "One die: only with one piece left."),
            (
                "On ne lance un seul dé que s'il ne reste qu'un pion sur le plateau ; il en "
                "reste {pieces}.",
                "A player throws one die only with one piece left on the board; {pieces} are left.",
            ),
            quote="Exception: si le joueur n' a plus qu'un seul pion restant sur le plateau, il "
            "peut choisir de lancer deux dés ou un dé.",
            allowed=(
                ("Dernier pion, un dé : {die} cases.", "Last piece, one die: {die} squares."),
                (
                    "Il ne reste qu'un pion sur le plateau : le joueur a lancé un seul dé, qui "
                    "le fait avancer de {die}.",
                    "Only one piece is left on the board: the player threw one die, which moves "
                    "it {die}.",
                ),
            ),
        ),
        _rule(
            "one-die",
            "N7",
            SOURCE,
            f"{LOGY}; DECISIONS.md N7",
            ("Les deux dés sont jouables : {example}.", "Both dice can be used: {example}."),
            (
                "Un dé ne sert seul que si les deux dés ne peuvent pas être utilisés ; ici un "
                "tour les utilise tous les deux (par exemple {example}).",
                "A die is used alone only when the two dice cannot both be used; here a turn "
                "uses both (for example {example}).",
            ),
            allowed=(
                ("Un seul dé jouable : {die} seul.", "Only one die can be used: {die} alone."),
                (
                    "Aucun tour n'utilise les deux dés : le {die} est joué seul.",
                    "No turn can use both dice: the {die} is used alone.",
                ),
            ),
        ),
        _rule(
            "blocked",
            "N7",
            SOURCE,
            f"{LOGY}; DECISIONS.md N7",
            ("Pas de passe : un coup existe, jouez.", "No passing: a move exists, play it."),
            (
                "On ne passe jamais son tour : un coup existe, il faut le jouer.",
                "There is no passing: a move exists and must be played.",
            ),
            allowed=(
                ("Aucun coup possible : vous perdez.", "No move possible: you lose."),
                (
                    "Le joueur ne peut rien déplacer et on ne passe pas : il perd la partie, son "
                    "adversaire gagne.",
                    "The player can move nothing and there is no passing: they lose the game "
                    "and the opponent wins.",
                ),
            ),
        ),
        _rule(
            "end",
            "N8",
            SOURCE,
            f"{LOGY}; DECISIONS.md N8",
            (
                "Fin : W {white}, B {black} ; {winner} gagne.",
                "Game over: W {white}, B {black}; {winner} wins.",
            ),
            (
                "Un joueur a sorti {pieces} pions : la partie s'arrête. Chaque pion sorti marque "
                "son numéro : blancs {white} ({white_off} pions), noirs {black} ({black_off} "
                "pions) ; à égalité de points, le plus de pions sortis l'emporte. Gagnant : "
                "{winner}.",
                "A player has borne off {pieces} pieces: the game is over. Each piece borne off "
                "scores its number: white {white} ({white_off} pieces), black {black} "
                "({black_off} pieces); equal scores go to the more pieces borne off. Winner: "
                "{winner}.",
            ),
        ),
        _rule(
            "turn-completes",
            "N8",
            DECISION,
            "DECISIONS.md N8 (ours: the end is checked when the turn is over)",
            ("Le tour se joue en entier avant la fin.", "The turn is played in full first."),
            (
                "Notre lecture : la fin (N8) se constate à la fin du tour ; le second dé se "
                "joue donc même si le premier a déjà sorti assez de pions ({pieces}), et tout "
                "pion sorti compte.",
                "Our reading: the end (N8) is checked when the turn is over; the second die is "
                "still played after the first has borne off enough pieces ({pieces}), and every "
                "piece borne off scores.",
            ),
        ),
    ]


SENET_MODERN = ModernRules(
    name="senet-modern",
    title="Senet-Modern (LOGY GAMES, 2011): two dice, pieces worth 1-5 points",
    source="004_200b210b949179cd.txt",
    rules=RuleBook(
        [*_setup_and_dice(), *_turn_rules(), *_goal_and_special_squares(), *_end_rules()]
    ),
    throws=DiceTable(faces=6),
)

ModernRules.family = Modern
