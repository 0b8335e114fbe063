"""The Mehen rule set as data: parameters, and every rule with its source and texts.

Ids are those of ``DECISIONS.md`` (M1-M10 for Mehen, T1-T2 for turns); G1 is a source-text
rule the decisions take for granted. Each rule says whether it is the source text (seed
000, cited by its section heading, with a quotation) or our reading.
"""

from __future__ import annotations

from functools import partial

from companion.games.mehen import Mehen, MehenRules
from companion.rules import Basis, Rule, RuleBook, bilingual
from companion.throws import StickTable

SOURCE, DECISION = Basis.SOURCE, Basis.DECISION
SEED = "seed 000"
_Texts = tuple[str, str]  # (fr, en)


_rule = partial(bilingual, decision_from_id=True)


def _section(name: str) -> str:
    return f"{SEED}, « {name} »"


SIMPLE_MOVES = _section("Déplacement des pions simples")
PREDATOR_MOVES = _section("Déplacement du pion prédateur")
CAPTURES = _section("Prise des pions adverses")
BLOCKING = _section("Blocage des pions")
FIRST_PHASE = _section("Déroulement du jeu, première phase")
SECOND_PHASE = _section("Déroulement du jeu, deuxième phase")
VICTORY = _section("Victoire")


def _turn_rules() -> list[Rule]:
    return [
        _rule(
            "pass",
            "T1",
            DECISION,
            "DECISIONS.md T1 (the Mehen source is silent)",
            ("Un coup existe : il faut jouer.", "A move exists: you must play."),
            (
                "Passer n'est permis que si le lancer ne permet aucun coup, même en arrière ; "
                "ici un coup existe.",
                "Passing is allowed only when the throw allows no move at all, not even "
                "backward; here a move exists.",
            ),
            allowed=(
                ("Aucun coup possible : main suivante.", "No move possible: pass the hand."),
                (
                    "Notre lecture : le lancer ne permet aucun coup, même en arrière ; la main "
                    "passe au joueur suivant, quelle que soit sa valeur.",
                    "Our reading: the throw allows no move at all, not even backward; the hand "
                    "passes to the next player whatever its value.",
                ),
            ),
        ),
        _rule(
            "extra-throw",
            "T2",
            DECISION,
            "DECISIONS.md T2",
            ("{throw} : rejouez.", "{throw}: throw again."),
            (
                "Le coup joué, c'est la valeur du lancer ({throw}) qui décide : le même "
                "joueur relance (1, 3 et 6 font rejouer).",
                "Once the move is played, the throw's own value ({throw}) decides: the same "
                "player throws again (1, 3 and 6 do).",
            ),
            quote="chaque joueur continuant à jouer tant qu'il obtient « 1 », « 3 » ou « 6 ».",
        ),
        _rule(
            "hand-passes",
            "T2",
            DECISION,
            "DECISIONS.md T2",
            ("{throw} : main suivante.", "{throw}: pass the hand."),
            (
                "Le coup joué, c'est la valeur du lancer ({throw}) qui décide : les bâtonnets "
                "passent au joueur suivant dans l'ordre des places.",
                "Once the move is played, the throw's own value ({throw}) decides: the sticks "
                "go to the next player in seating order.",
            ),
            quote="Lorsque le joueur obtient « 2 », il joue puis passe les bâtonnets au joueur "
            "suivant dans le sens des aiguilles d'une montre.",
        ),
        _rule(
            "not-your-piece",
            "G1",
            SOURCE,
            SIMPLE_MOVES,
            ("Pas de pion à vous sur la case {square}.", "No piece of yours on square {square}."),
            (
                "Un coup déplace un pion du joueur qui a lancé ; la case {square} n'en porte "
                "pas qu'il puisse jouer.",
                "A move carries a piece of the player who threw; square {square} holds none "
                "that they can play.",
            ),
            quote="Le nombre de points obtenu peut être joué avec n'importe quel pion de sa "
            "couleur",
        ),
    ]


def _board_and_throw_rules() -> list[Rule]:
    return [
        _rule(
            "board",
            "M1",
            DECISION,
            "DECISIONS.md M1",
            (
                "Pas de case {square} : le plateau en a {length}.",
                "No square {square}: the board has {length}.",
            ),
            (
                "Notre lecture : le plateau est une spirale de N cases comptées sur votre "
                "plateau (88 par défaut), la queue est la case 1 et le centre la case N ; "
                "ici N = {length}, la case {square} n'existe pas.",
                "Our reading: the board is a spiral of N squares counted on your own board "
                "(88 by default), the tail is square 1 and the centre square N; here "
                "N = {length}, so square {square} does not exist.",
            ),
            allowed=(
                ("Queue = case 1, centre = dernière case.", "Tail = square 1, centre = the last."),
                (
                    "Notre lecture : une spirale de N cases (88 par défaut, à compter sur votre "
                    "plateau) : la queue est la case 1, le centre la case N.",
                    "Our reading: a spiral of N squares (88 by default, count them on your "
                    "board): the tail is square 1, the centre square N.",
                ),
            ),
        ),
        _rule(
            "pieces",
            "M2",
            SOURCE,
            _section("Matériel"),
            (
                "2 à 6 joueurs : 6 pions et 1 prédateur.",
                "2 to 6 players: 6 pieces and 1 predator.",
            ),
            (
                "De 2 à 6 joueurs, chacun avec 6 pions simples hors du plateau et un prédateur "
                "qui attend au centre ; on joue dans l'ordre des places, le premier joueur "
                "ayant été choisi à la table.",
                "2 to 6 players, each with 6 simple pieces off the board and a predator "
                "waiting on the centre; turns follow the seating order, the first player "
                "being chosen at the table.",
            ),
            quote="6 pions « proies » et 1 pion « prédateur » par joueurs",
        ),
        _rule(
            "distance",
            "M2",
            SOURCE,
            SIMPLE_MOVES,
            (
                "Un {throw} : un pion de {throw}, prédateur {double}.",
                "A {throw}: a piece moves {throw}, predator {double}.",
            ),
            (
                "Le lancer ({throw}) fait avancer un seul de vos pions simples d'exactement "
                "{throw} cases (aucune face décorée vaut 6), ou votre prédateur de {double}.",
                "The throw ({throw}) moves one of your simple pieces exactly {throw} squares "
                "(no decorated face counts 6), or your predator {double}.",
            ),
            quote="Le nombre de points obtenu peut être joué avec n'importe quel pion de sa "
            "couleur, mais ne peut pas être réparti entre plusieurs pions.",
            allowed=(
                ("Le pion avance de {throw}.", "The piece moves {throw} squares."),
                (
                    "Le lancer ({throw}) fait avancer ce seul pion d'exactement {throw} cases.",
                    "The throw ({throw}) moves this one piece exactly {throw} squares.",
                ),
            ),
        ),
        _rule(
            "predator-distance",
            "M2",
            SOURCE,
            PREDATOR_MOVES,
            ("Un {throw} : le prédateur fait {double}.", "A {throw}: the predator moves {double}."),
            (
                "Le prédateur double le lancer : un {throw} le déplace d'exactement {double} "
                "cases, vers le centre ou vers la queue.",
                "The predator doubles the throw: a {throw} moves it exactly {double} squares, "
                "toward the centre or toward the tail.",
            ),
            quote="Le pion prédateur se déplace en avant ou en arrière d'après le lancement "
            "simultané des trois bâtonnets",
        ),
        _rule(
            "skip",
            "M2",
            DECISION,
            "DECISIONS.md M2 (the source is silent)",
            ("Les {colour_fr} ne peuvent plus jouer.", "{colour} can never move: skipped."),
            (
                "Notre lecture : les {colour_fr} n'ont plus rien qui puisse jamais bouger "
                "(pions au centre ou mangés, prédateur sorti ou jamais libéré) : on les saute.",
                "Our reading: {colour} has nothing left that can ever move (pieces on the "
                "centre or eaten, predator gone or never to be released): the turn skips them.",
            ),
        ),
        _rule(
            "enter",
            "M3",
            SOURCE,
            FIRST_PHASE,
            (
                "Seul un {enter} fait entrer, sur la queue (1).",
                "Only a {enter} enters a piece, on the tail (1).",
            ),
            (
                "Un pion n'entre que par un lancer de {enter}, et il se place sur la queue du "
                "serpent, la case 1.",
                "A piece enters only with a throw of {enter}, and it goes on the snake's tail, "
                "square 1.",
            ),
            quote="A chaque fois qu'un joueur obtient « 1 », il peut placer un pion sur la case "
            "départ.",
            allowed=(
                ("Un {enter} : un pion entre sur la queue.", "A {enter}: a piece enters the tail."),
                (
                    "Chaque lancer de {enter} peut placer un nouveau pion sur la queue (case 1) "
                    "au lieu d'avancer un pion d'une case.",
                    "Each throw of {enter} may place a new piece on the tail (square 1) instead "
                    "of moving a piece one square.",
                ),
            ),
        ),
        _rule(
            "enter-none",
            "M3",
            SOURCE,
            FIRST_PHASE,
            ("Tous vos pions sont déjà entrés.", "All your pieces have entered already."),
            (
                "Vous n'avez plus de pion à faire entrer : ils sont tous sur le parcours, au "
                "centre ou mangés.",
                "You have no piece left to enter: they are all on the track, on the centre or "
                "eaten.",
            ),
            quote="Il est nécessaire d'obtenir un lancer de « 1 » pour placer un pion sur la "
            "case de départ",
        ),
    ]


def _sharing_rules() -> list[Rule]:
    return [
        _rule(
            "shared-cell",
            "M4",
            SOURCE,
            FIRST_PHASE,
            ("{square} : plusieurs pions, rien n'est pris.", "{square} holds many: nothing taken."),
            (
                "La queue et le centre (ici {square}) reçoivent n'importe quel nombre de pions "
                "de toutes couleurs : on n'y prend, n'y échange ni n'y mange rien.",
                "The tail and the centre (here {square}) hold any number of pieces of any "
                "colour: nothing is taken, swapped or eaten there.",
            ),
            quote="C'est la seule case sur laquelle peuvent se placer plusieurs pions avec la "
            "case centrale.",
        ),
        _rule(
            "own-piece",
            "M4",
            SOURCE,
            CAPTURES,
            ("{square} occupé par votre pion.", "{square} holds your own piece."),
            (
                "Hors de la queue et du centre, un seul pion par case : votre pion ne peut pas "
                "s'arrêter sur la case {square}, qui porte déjà un de vos pions.",
                "Off the tail and the centre, one piece per square: your piece cannot stop on "
                "square {square}, which holds one of your own.",
            ),
            quote="deux pions, même s'ils sont de même couleur, ne peuvent jamais occuper la "
            "même case.",
        ),
        _rule(
            "swap",
            "M5",
            SOURCE,
            CAPTURES,
            ("Échange : l'adverse va en {back}.", "Swap: the enemy goes to {back}."),
            (
                "Le pion simple adverse sur {square} recule sur la case {back}, d'où vient "
                "l'attaquant : les deux pions échangent leur place.",
                "The enemy simple piece on {square} goes back to square {back}, where the "
                "attacker came from: the two pieces swap.",
            ),
            quote="Lorsqu'un pion simple tombe sur une case occupée par un pion simple adverse, "
            "ce dernier doit reculer jusqu'à la case d'où vient l'attaquant (les pions "
            "échangent leur position).",
        ),
        _rule(
            "protected",
            "M5",
            SOURCE,
            BLOCKING,
            (
                "{square} protégé par son voisin en {partner}.",
                "{square} is protected by {partner}.",
            ),
            (
                "Le pion sur {square} a un pion de sa couleur sur la case voisine {partner} : "
                "deux pions voisins de même couleur sont imprenables, ni échangés ni mangés.",
                "The piece on {square} has a piece of its colour next to it on {partner}: two "
                "adjacent pieces of one colour can be neither swapped nor eaten.",
            ),
            quote="Au moins deux pions de même couleur dans deux cases qui se suivent sont "
            "imprenables",
        ),
        _rule(
            "guarded",
            "M5",
            SOURCE,
            BLOCKING,
            ("{square} gardé par son prédateur ({partner}).", "{square} guarded by its predator."),
            (
                "Le pion sur {square} a son propre prédateur sur la case voisine {partner} : "
                "il est protégé, ni échangé ni mangé.",
                "The piece on {square} has its own predator next to it on {partner}: it is "
                "protected, neither swapped nor eaten.",
            ),
            quote="Le pion prédateur d'un joueur protège également un ou des pions de ce même "
            "joueur s'il est sur une case adjacente.",
        ),
        _rule(
            "protected-edge",
            "M5",
            DECISION,
            f"{BLOCKING}; DECISIONS.md M5 and M4",
            ("{square} protégé depuis la case {partner}.", "{square} is protected from {partner}."),
            (
                "Notre lecture : la queue (1) et le centre sont des cases du parcours ; un pion "
                "ou le prédateur de même couleur qui s'y trouve protège le pion de la case "
                "voisine (ici {square}, protégé depuis {partner}).",
                "Our reading: the tail (1) and the centre are squares of the track; a piece or "
                "predator of the same colour there protects the piece next to it (here "
                "{square}, protected from {partner}).",
            ),
            quote="Au moins deux pions de même couleur dans deux cases qui se suivent sont "
            "imprenables",
        ),
        _rule(
            "predator-square",
            "M5",
            SOURCE,
            CAPTURES,
            ("Un pion ne va pas sur un prédateur ({square}).", "No piece lands on a predator."),
            (
                "Un pion simple ne s'arrête jamais sur la case d'un prédateur (ici {square}) "
                "et ne change jamais de place avec lui.",
                "A simple piece never stops on a predator's square (here {square}) and never "
                "swaps with it.",
            ),
            quote="Un pion simple ne peut pas changer de place avec un pion prédateur.",
        ),
    ]


def _centre_and_backward_rules() -> list[Rule]:
    return [
        _rule(
            "centre",
            "M6",
            SOURCE,
            FIRST_PHASE,
            ("Centre ({length}) atteint : pion à l'abri.", "Centre ({length}) reached: safe."),
            (
                "Le pion atteint le centre (case {length}) par un lancer exact : il y est à "
                "l'abri et y reste.",
                "The piece reaches the centre (square {length}) with an exact throw: it is "
                "safe there and stays.",
            ),
            quote="Une fois sur la case centrale, les pions sont protégés et ne peuvent plus "
            "être mangés par un pion prédateur.",
        ),
        _rule(
            "exact-centre",
            "M6",
            SOURCE,
            FIRST_PHASE,
            ("Centre ({length}) : lancer exact exigé.", "Centre ({length}): exact throw only."),
            (
                "Un pion simple n'atteint le centre (case {length}) que par un lancer exact et "
                "ne va jamais au-delà : depuis {square}, ce {throw} est trop fort.",
                "A simple piece reaches the centre (square {length}) only with an exact throw "
                "and never goes past it: from {square}, this {throw} is too much.",
            ),
            quote="jusqu'au point central où ils ne pourront se rendre que par un lancer exact. "
            "Si le nombre de points est trop élevé, ils doivent faire avancer un autre pion.",
        ),
        _rule(
            "centre-stays",
            "M6",
            SOURCE,
            _section("But du jeu"),
            ("Un pion au centre y reste.", "A piece on the centre stays there."),
            (
                "Un pion simple arrivé au centre (case {length}) y est en sécurité et ne bouge "
                "plus.",
                "A simple piece that reached the centre (square {length}) is safe there and "
                "moves no more.",
            ),
            quote="puis les déplacer jusqu'au centre de la spirale pour les mettre en sécurité.",
        ),
        _rule(
            "backward",
            "M7",
            SOURCE,
            f"{SIMPLE_MOVES}; DECISIONS.md M7",
            (
                "Reculer seulement si rien d'autre ne joue.",
                "Back only when nothing else moves.",
            ),
            (
                "Un pion ne recule que si aucun autre coup n'existe (entrer, avancer un pion, "
                "jouer le prédateur) ; ici il y en a un, par exemple {example}.",
                "A piece moves back only when no other move exists (entering, a piece forward, "
                "the predator); here one does, for example {example}.",
            ),
            quote="Si aucun pion ne peut avancer alors un des pions doit reculer du nombre de "
            "points obtenus.",
            allowed=(
                ("Rien d'autre : reculez de {throw}.", "Nothing else moves: back {throw}."),
                (
                    "Aucun autre coup n'existe : le lancer ({throw}) fait reculer le pion de la "
                    "case {square}.",
                    "No other move exists: the throw ({throw}) moves the piece on square "
                    "{square} backward.",
                ),
            ),
        ),
        _rule(
            "backward-occupied",
            "M7",
            DECISION,
            "DECISIONS.md M7",
            ("Recul sur {square} occupé : interdit.", "Cannot move back onto busy {square}."),
            (
                "Notre lecture : un pion ne recule que sur une case vide ou sur la queue, sans "
                "jamais échanger ; la case {square} est occupée.",
                "Our reading: a piece moves back only onto an empty square or onto the tail, "
                "never swapping; square {square} is occupied.",
            ),
        ),
    ]


def _predator_rules() -> list[Rule]:
    return [
        _rule(
            "release",
            "M8",
            SOURCE,
            SECOND_PHASE,
            ("Votre prédateur est libéré !", "Your predator is released!"),
            (
                "Tous vos pions sont entrés (ceux mangés depuis comptent, notre lecture) et un "
                "pion arrive au centre : votre prédateur, au centre ({length}), entre en jeu ; "
                "le jouer reste facultatif.",
                "All your pieces have entered (those eaten since count, our reading) and a "
                "piece reaches the centre: your predator, on the centre ({length}), comes into "
                "play; moving it stays optional.",
            ),
            quote="Le premier pion d'un joueur qui arrive au centre libère le pion prédateur de "
            "ce joueur, à condition que tous ses pions soient engagés sur le parcours.",
        ),
        _rule(
            "no-release",
            "M8",
            SOURCE,
            SECOND_PHASE,
            ("Prédateur retenu : {count} pion(s) à entrer.", "Predator held: {count} to enter."),
            (
                "Le pion arrive au centre, mais {count} de vos pions ne sont pas encore "
                "entrés : le prédateur n'est pas libéré ; il le sera quand un pion arrivera au "
                "centre une fois tous entrés.",
                "The piece reaches the centre, but {count} of your pieces have not entered "
                "yet: the predator is not released; it will be when a piece reaches the "
                "centre once all have entered.",
            ),
            quote="Le joueur qui a engagé tous ses pions sur le parcours (sur la case de départ "
            "ou sur le plateau) et qui arrive à placer un de ses pions sur la case centrale "
            "peut mettre son pion prédateur en jeu.",
        ),
        _rule(
            "not-released",
            "M8",
            SOURCE,
            SECOND_PHASE,
            ("Prédateur pas encore libéré.", "Your predator is not released yet."),
            (
                "Le prédateur attend au centre jusqu'à ce qu'un de vos pions y arrive alors "
                "que tous vos pions sont entrés ; d'ici là il ne bouge pas.",
                "The predator waits on the centre until one of your pieces arrives there "
                "once all your pieces have entered; until then it does not move.",
            ),
            quote="Le joueur qui a engagé tous ses pions sur le parcours (sur la case de départ "
            "ou sur le plateau) et qui arrive à placer un de ses pions sur la case centrale "
            "peut mettre son pion prédateur en jeu.",
        ),
        _rule(
            "predator",
            "M9",
            SOURCE,
            SECOND_PHASE,
            ("Prédateur : {double} cases.", "Predator: {double} squares."),
            (
                "Le prédateur double le lancer ({throw}) : il fait {double} cases, vers la "
                "queue ou vers le centre, en sautant les autres pions.",
                "The predator doubles the throw ({throw}): it moves {double} squares, toward "
                "the tail or toward the centre, jumping over other pieces.",
            ),
            quote="Le pion prédateur effectue le parcours en sens inverse en avançant ou "
            "reculant mais en doublant ses déplacements.",
        ),
        _rule(
            "predator-start",
            "M9",
            SOURCE,
            PREDATOR_MOVES,
            ("Votre prédateur est en {square}.", "Your predator stands on {square}."),
            (
                "Chaque joueur a un seul prédateur, sur la case {square} : un coup de prédateur "
                "part de là.",
                "Each player has one predator, on square {square}: a predator move starts there.",
            ),
            quote="6 pions « proies » et 1 pion « prédateur » par joueurs",
        ),
        _rule(
            "predator-centre",
            "M9",
            SOURCE,
            SECOND_PHASE,
            ("Prédateur : pas au-delà du centre.", "Predator: never past the centre."),
            (
                "Le prédateur ne va jamais au-delà du centre (case {length}) : ses {double} "
                "cases vers le centre l'y mèneraient plus loin.",
                "The predator never goes past the centre (square {length}): {double} squares "
                "inward would take it beyond.",
            ),
            quote="Le pion prédateur effectue le parcours en sens inverse",
        ),
        _rule(
            "predator-own",
            "M9",
            SOURCE,
            CAPTURES,
            ("Prédateur : pas sur votre pion ({square}).", "Predator: not onto your own piece."),
            (
                "Un seul pion par case hors de la queue et du centre : votre prédateur ne peut "
                "pas s'arrêter sur votre propre pion (case {square}).",
                "One piece per square off the tail and the centre: your predator cannot stop "
                "on your own piece (square {square}).",
            ),
            quote="deux pions, même s'ils sont de même couleur, ne peuvent jamais occuper la "
            "même case.",
        ),
        _rule(
            "predator-gone",
            "M9",
            SOURCE,
            SECOND_PHASE,
            ("Votre prédateur est sorti du jeu.", "Your predator has left the board."),
            (
                "Votre prédateur est sorti par la queue du serpent : il ne revient pas.",
                "Your predator has left by the snake's tail: it does not come back.",
            ),
            quote="Le pion prédateur peut sortir par la queue du serpent par un lancer exact",
        ),
        _rule(
            "eat",
            "M9",
            SOURCE,
            CAPTURES,
            ("Mangé en {square} : gardé par le mangeur.", "Eaten on {square}: the eater keeps it."),
            (
                "Le prédateur mange le pion simple adverse de la case {square} : il est retiré "
                "du jeu et compte pour celui qui l'a mangé.",
                "The predator eats the enemy simple piece on square {square}: it leaves the "
                "game and counts for the player who ate it.",
            ),
            quote="Les pions prédateurs, eux, mangent les pions adverses simples et les retirent "
            "du jeu.",
        ),
        _rule(
            "predator-swap",
            "M9",
            SOURCE,
            CAPTURES,
            ("Prédateurs échangés : l'autre en {back}.", "Predators swap: the other to {back}."),
            (
                "Le prédateur tombe sur le prédateur adverse de la case {square} : ils "
                "échangent leur place, l'autre va en {back}.",
                "The predator lands on the enemy predator on square {square}: they swap, the "
                "other goes to {back}.",
            ),
            quote="Si un pion prédateur tombe sur une case d'un autre pion prédateur, ils "
            "échangent leurs positions.",
        ),
        _rule(
            "exit",
            "M9",
            SOURCE,
            SECOND_PHASE,
            ("Le prédateur sort par la queue.", "The predator leaves by the tail."),
            (
                "Depuis {square}, {double} cases mènent le prédateur exactement une case "
                "après la queue : il sort du plateau.",
                "From {square}, {double} squares take the predator exactly one square past "
                "the tail: it leaves the board.",
            ),
            quote="Le pion prédateur peut sortir par la queue du serpent par un lancer exact à "
            "condition que tous les pions du joueur aient été engagés sur le parcours",
        ),
        _rule(
            "exit-two",
            "M9",
            DECISION,
            "DECISIONS.md M9",
            ("Sortie à deux cases après la queue.", "Out two squares past the tail."),
            (
                "Notre lecture : sur ce plateau les coups pairs du prédateur ne tombent jamais "
                "une case après la queue ; depuis {square}, {double} cases le mènent "
                "exactement deux cases après : il sort.",
                "Our reading: on this board the predator's even moves never land one square "
                "past the tail; from {square}, {double} squares take it exactly two squares "
                "past: it leaves.",
            ),
        ),
        _rule(
            "exit-exact",
            "M9",
            SOURCE,
            SECOND_PHASE,
            ("Sortie : lancer exact exigé.", "Leaving needs an exact throw."),
            (
                "Le prédateur ne sort que par un lancer exact qui le mène une case après la "
                "queue ; depuis {square}, {double} cases ne le font pas.",
                "The predator leaves only with an exact throw that takes it one square past "
                "the tail; from {square}, {double} squares do not.",
            ),
            quote="Le pion prédateur peut sortir par la queue du serpent par un lancer exact",
        ),
    ]


def _end_rules() -> list[Rule]:
    return [
        _rule(
            "game-over",
            "M10",
            SOURCE,
            f"{SECOND_PHASE} and « Victoire »; DECISIONS.md M10",
            ("Fin : {result_fr}.", "Game over: {result}."),
            (
                "Tous les prédateurs sont sortis ou ne peuvent plus être libérés : la partie "
                "s'arrête. Points (pions à soi en jeu + pions mangés) : {scores_fr} ; "
                "{result_fr}.",
                "Every predator has left the board or can never be released: the game ends. "
                "Scores (own pieces in play + pieces eaten): {scores}; {result}.",
            ),
            quote="Une fois tous les pions prédateurs sortis, la partie s'arrête et on compte "
            "les points. Le joueur ayant le plus de pion en fin de partie (les siens ou ceux "
            "qu'il aura mangés) gagne.",
        ),
        _rule(
            "agreement",
            "M10",
            DECISION,
            "DECISIONS.md M10",
            ("Fin d'un commun accord : avant un lancer.", "End by agreement: before a throw."),
            (
                "Notre lecture : les joueurs peuvent arrêter la partie d'un commun accord "
                "entre deux lancers ; un lancer ({throw}) attend son coup : jouez-le ou "
                "annulez-le d'abord.",
                "Our reading: the players may end the game by agreement between throws; a "
                "throw ({throw}) is waiting for its move: play it or undo it first.",
            ),
            allowed=(
                ("Fin d'un commun accord : {result_fr}.", "Ended by agreement: {result}."),
                (
                    "Notre lecture : les joueurs arrêtent la partie d'un commun accord ; on "
                    "compte les points (pions à soi en jeu + pions mangés ; les pions pas "
                    "encore entrés ne comptent pas) : {scores_fr} ; {result_fr}.",
                    "Our reading: the players end the game by agreement; scores are counted "
                    "(own pieces in play + pieces eaten; pieces not yet entered do not count): "
                    "{scores}; {result}.",
                ),
            ),
        ),
    ]


def _mehen_rules() -> RuleBook:
    return RuleBook(
        [
            *_turn_rules(),
            *_board_and_throw_rules(),
            *_sharing_rules(),
            *_centre_and_backward_rules(),
            *_predator_rules(),
            *_end_rules(),
        ]
    )


MEHEN = MehenRules(
    name="mehen",
    title="Mehen, the serpent game (2 to 6 players, predators)",
    source="000_6a89409efa4b2579.txt",
    rules=_mehen_rules(),
    # M2: count decorated faces up: 1, 2, 3 move 1, 2, 3; none decorated moves 6.
    throws=StickTable(sticks=3, scores=(6, 1, 2, 3), extra=frozenset({1, 3, 6})),
)

MehenRules.family = Mehen
