"""The two Senet rule sets as data: parameters, and every rule with its source and texts.

Ids are those of ``DECISIONS.md`` (S1-S11 for Migo, K1-K8 for Kendall, T1-T2 for turns);
G1 and G2 are source-text rules that the decisions take for granted. Each rule says
whether it is the source text (with the rule number or a quotation) or our reading.
"""

from __future__ import annotations

from companion.core import OFF
from companion.games.senet import BLACK, WHITE, Senet, SenetRules
from companion.rules import Basis, Rule, RuleBook, bilingual
from companion.throws import StickTable

SOURCE, DECISION = Basis.SOURCE, Basis.DECISION
MIGO = "Migo"
KENDALL = "seed 003"


_rule = bilingual


# Texts that read the same in both Senet rule sets; only the citations differ.
_TextPair = tuple[str, str]
_SHARED_TEXTS: dict[str, tuple[_TextPair, _TextPair, tuple[_TextPair, _TextPair] | None]] = {
    "opening": (
        (
            "Ouverture : seul un 1 compte.",
            "Opening: only a 1 counts.",
        ),
        (
            "Ouverture : les joueurs lancent à tour de rôle jusqu'à ce que l'un tire 1 ; un "
            "autre lancer ne déplace rien et passe au joueur suivant.",
            "Opening: players throw in turn until one throws a 1; any other throw moves "
            "nothing and goes to the next player.",
        ),
        (
            (
                "Pas de 1 : au joueur suivant.",
                "No 1: next player throws.",
            ),
            (
                "Ouverture : ce {throw} ne déplace rien ; le joueur suivant lance.",
                "Opening: this {throw} moves nothing; the next player throws.",
            ),
        ),
    ),
    "protected": (
        (
            "{square} protégé par son voisin en {partner}.",
            "{square} is protected by {partner}.",
        ),
        (
            "Le pion sur {square} a un pion de sa couleur sur la case voisine {partner} : deux "
            "pions contigus se protègent et ne peuvent être attaqués.",
            "The piece on {square} has a piece of its colour next to it on {partner}: two "
            "adjacent pieces protect each other and cannot be attacked.",
        ),
        None,
    ),
    "refuge": (
        (
            "{square} est un refuge : pas d'attaque.",
            "{square} is a refuge: no attack.",
        ),
        (
            "Les cases 26, 28, 29 et 30 sont des refuges : le pion sur {square} ne peut pas "
            "être attaqué.",
            "Squares 26, 28, 29 and 30 are refuges: the piece on {square} cannot be attacked.",
        ),
        None,
    ),
    "backward": (
        (
            "Reculer seulement si rien n'avance.",
            "Back only when nothing moves forward.",
        ),
        (
            "Un lancer ne sert à reculer que si aucun pion ne peut avancer ; ici un coup en "
            "avant existe (par exemple {example}).",
            "A throw moves a piece backward only when no piece can move forward; here a "
            "forward move exists (for example {example}).",
        ),
        (
            (
                "Rien n'avance : reculez de {throw}.",
                "Nothing moves forward: back {throw}.",
            ),
            (
                "Aucun pion ne peut avancer : le lancer ({throw}) sert à reculer le pion de la "
                "case {square}.",
                "No piece can move forward: the throw ({throw}) moves the piece on square "
                "{square} backward.",
            ),
        ),
    ),
    "backward-occupied": (
        (
            "Recul sur {square} occupé : interdit.",
            "Cannot move back onto busy {square}.",
        ),
        (
            "On ne recule que sur une case vide ; la case {square} est occupée.",
            "A piece moves back only onto an empty square; square {square} is occupied.",
        ),
        None,
    ),
}


def _shared(
    key: str, rule_id: str, basis: Basis, citation: str, *, quote: str = "", decision: str = ""
) -> Rule:
    """A rule whose texts are in _SHARED_TEXTS."""
    short, long, allowed = _SHARED_TEXTS[key]
    return _rule(
        key, rule_id, basis, citation, short, long, quote=quote, decision=decision, allowed=allowed
    )


def _shared_rules(
    source: str, pass_basis: Basis, pass_citation: str, pass_quote: str
) -> list[Rule]:
    """Rules whose texts are the same in both Senet rule sets (their citations differ)."""
    return [
        _rule(
            "pass",
            "T1",
            pass_basis,
            pass_citation,
            ("Un coup existe : il faut jouer.", "A move exists: you must play."),
            (
                "Passer n'est permis que si le lancer ne permet aucun coup, ni en avant ni en "
                "arrière ; ici un coup existe.",
                "Passing is allowed only when the throw allows no move at all, forward or "
                "backward; here a move exists.",
            ),
            allowed=(
                ("Aucun coup possible : main suivante.", "No move possible: pass the hand."),
                (
                    "Le lancer ne permet aucun coup, ni en avant ni en arrière : la main passe, "
                    "quelle que soit sa valeur.",
                    "The throw allows no move at all, forward or backward: the hand passes "
                    "whatever its value.",
                ),
            ),
            quote=pass_quote,
            decision="T1",
        ),
        _rule(
            "extra-throw",
            "T2",
            DECISION,
            "DECISIONS.md T2",
            ("{throw} : rejouez.", "{throw}: throw again."),
            (
                "Le coup joué, c'est la valeur du lancer ({throw}) qui décide : "
                "le même joueur relance.",
                "Once the move is played, the throw's own value ({throw}) decides: "
                "the same player throws again.",
            ),
            decision="T2",
        ),
        _rule(
            "hand-passes",
            "T2",
            DECISION,
            "DECISIONS.md T2",
            ("{throw} : main suivante.", "{throw}: pass the hand."),
            (
                "Le coup joué, c'est la valeur du lancer ({throw}) qui décide : "
                "la main passe à l'adversaire.",
                "Once the move is played, the throw's own value ({throw}) decides: "
                "the hand passes to the opponent.",
            ),
            decision="T2",
        ),
    ]


def _migo_rules() -> RuleBook:
    return RuleBook(
        [
            *_shared_rules(MIGO, SOURCE, "Migo rule 15", "À défaut, passer la main."),
            _rule(
                "pieces",
                "S1",
                DECISION,
                "Migo rule 2; DECISIONS.md S1",
                (
                    "7 pions chacun, blancs impairs, noirs pairs.",
                    "7 pieces each: white odd, black even.",
                ),
                (
                    "Chaque camp a 7 pions (les règles de Migo renvoient à Géoludie, dont le "
                    "senet en a 7) : blancs sur 1, 3, ..., 13, noirs sur 2, 4, ..., 14.",
                    "Each side has 7 pieces (the Migo rules credit Geoludie, whose Senet has "
                    "7): white on 1, 3, ..., 13, black on 2, 4, ..., 14.",
                ),
                quote="Les ibaus (pions) blancs sont placés sur les cases impaires et les noirs "
                "sur les cases paires, à partir du début du parcours.",
                decision="S1",
            ),
            _rule(
                "distance",
                "S2",
                DECISION,
                "Migo rule 7; the stick table is DECISIONS.md S2",
                (
                    "Un {throw} avance un pion de {throw} cases.",
                    "A {throw} moves one piece {throw} squares.",
                ),
                (
                    "Le lancer ({throw}) fait avancer un seul pion d'exactement {throw} cases "
                    "(0 face marquée vaut 5).",
                    "The throw ({throw}) moves one piece exactly {throw} squares "
                    "(no marked face counts 5).",
                ),
                quote="Si le joueur tire 1, 4 ou 5, il avance un pion du nombre de cases "
                "correspondant, puis il lance à nouveau les bâtonnets.",
                decision="S2",
            ),
            _shared(
                "opening",
                "S3",
                SOURCE,
                "Migo rules 3-4",
                quote="Le premier à lancer 1 commence le jeu avec les blancs.",
                decision="S3",
            ),
            _rule(
                "opening-one",
                "S3",
                SOURCE,
                "Migo rules 3-4",
                ("Joueur {seat} : blancs, relancez.", "Player {seat}: white, throw again."),
                (
                    "Le joueur {seat} a tiré le premier 1 : il prend les blancs et relance "
                    "pour jouer ; ce 1 ne déplace aucun pion.",
                    "Player {seat} threw the first 1: they take white and throw again to play; "
                    "that 1 moves no piece.",
                ),
                quote='le joueur "blanc" lance ensuite les bâtonnets, pour jouer cette fois.',
                decision="S3",
            ),
            _general_not_your_piece(
                MIGO + " rule 7", "il avance un pion du nombre de cases correspondant"
            ),
            _general_one_per_square(
                MIGO + " rule 9", "Il ne peut y avoir qu'un seul pion par case."
            ),
            _rule(
                "swap",
                "S4",
                SOURCE,
                "Migo rule 10",
                (
                    "Attaque : échange, l'adverse va en {back}.",
                    "Attack: swap, enemy goes to {back}.",
                ),
                (
                    "Le pion adverse sur {square} est attaqué : il recule sur la case {back} "
                    "laissée vide par l'assaillant.",
                    "The enemy piece on {square} is attacked: it goes back to square {back}, "
                    "which the attacker left.",
                ),
                quote="Il doit reculer vers la case laissée vide par son assaillant, et celui-ci "
                "prend sa place.",
                decision="S4",
            ),
            _shared(
                "protected",
                "S4",
                SOURCE,
                "Migo rule 11",
                quote="Deux pions de même couleur sur des cases contigües se protégent "
                "mutuellement.",
                decision="S4",
            ),
            _rule(
                "wall",
                "S4",
                SOURCE,
                "Migo rule 11",
                (
                    "Mur adverse en {square} : infranchissable.",
                    "Enemy wall at {square}: no passing.",
                ),
                (
                    "Trois pions adverses contigus ou plus (dont celui sur {square}) forment un "
                    "mur : "
                    "ni attaquable ni franchissable.",
                    "Three or more adjacent enemy pieces (one on {square}) form a wall: they "
                    "can be "
                    "neither attacked nor passed.",
                ),
                quote="Trois pions de même couleur sur des cases contigües forment un mur "
                "infranchissable et inattaquable par l'adversaire.",
                decision="S4",
            ),
            _rule(
                "own-wall",
                "S4",
                SOURCE,
                "Migo rule 11",
                ("Saute son propre mur : permis.", "Jumps its own wall: allowed."),
                (
                    "Le pion passe par-dessus un mur de sa couleur (case {square}) : "
                    "les pions de même couleur peuvent le franchir.",
                    "The piece passes over a wall of its own colour (square {square}): "
                    "pieces of that colour may jump it.",
                ),
                quote="Les pions de même couleur peuvent passer par-dessus.",
                decision="S4",
            ),
            _shared(
                "refuge",
                "S5",
                SOURCE,
                "Migo rule 12",
                quote="Les cases spéciales (n° 26, 28, 29 et 30) sont des refuges.",
                decision="S5",
            ),
            _rule(
                "exact-square",
                "S6",
                SOURCE,
                "Migo rule 13",
                (
                    "Arrêt obligé en {square} : pas au-delà.",
                    "Must stop on {square}: no passing it.",
                ),
                (
                    "La case {square} est un passage obligé : chaque pion doit s'y arrêter "
                    "à l'issue d'un lancer avant d'aller plus loin.",
                    "Square {square} must be reached by an exact throw: no piece goes past it "
                    "without stopping on it.",
                ),
                quote="Chaque pion doit y arriver directement à l'issue d'un lancer.",
                decision="S6",
            ),
            _rule(
                "exit",
                "S7",
                SOURCE,
                "Migo rules 16-19",
                (
                    "De {square}, un {throw} mène en {target}.",
                    "From {square}, a {throw} goes to {target}.",
                ),
                (
                    "Depuis 26 : 5 sort, 2, 3, 4 mènent en 28, 29, 30 si libres, 1 en 27 ; "
                    "depuis 28 un 3, 29 un 2, 30 un 1 sortent, tout autre lancer mène en 27. "
                    "Ici : depuis {square}, un {throw} mène en {target}.",
                    "From 26: 5 bears off, 2, 3, 4 go to 28, 29, 30 when empty, 1 to 27; "
                    "from 28 a 3, 29 a 2, 30 a 1 bears off, any other throw goes to 27. "
                    "Here: from {square}, a {throw} goes to {target}.",
                ),
                quote="Pour sortir un pion à partir de la case 26 (Maison de la Joie ou du "
                "Bonheur), il faut obtenir un 5.",
                decision="S7",
            ),
            _rule(
                "exit-off",
                "S7",
                SOURCE,
                "Migo rules 16-19",
                ("De {square}, un {throw} fait sortir.", "From {square}, a {throw} bears off."),
                (
                    "Depuis 26 un 5, depuis 28 un 3, depuis 29 un 2, depuis 30 un 1 font sortir "
                    "le pion : ici depuis {square} avec {throw}.",
                    "From 26 a 5, from 28 a 3, from 29 a 2, from 30 a 1 bears the piece off: "
                    "here from {square} with {throw}.",
                ),
                quote="Pour sortir un pion à partir de la case 28 (Maison des trois Vérités), il "
                "faut obtenir un 3.",
                decision="S7",
            ),
            _rule(
                "water",
                "S8",
                SOURCE,
                "Migo rule 14",
                (
                    "Tombe en {square} : retour en {landing}.",
                    "Falls in {square}: back to {landing}.",
                ),
                (
                    "La case {square} (Maison de l'Eau) renvoie le pion au début du parcours, "
                    "case 1, ou à la première case libre après : ici {landing}.",
                    "Square {square} (the House of Water) sends the piece back to square 1, or "
                    "the first free square after it: here {landing}.",
                ),
                quote="Le pion qui y tombe retourne au début du parcours, case 1. Si cette case "
                "est occupée, il retourne à la première case libre.",
                decision="S8",
            ),
            _rule(
                "last-resort",
                "S9",
                SOURCE,
                "Migo rule 15 §2",
                ("Vers 27 seulement faute d'autre coup.", "Into 27 only when nothing else moves."),
                (
                    "Jouer un pion des cases spéciales vers la case 27 n'est permis que si "
                    "aucun autre coup, en avant ou en arrière, n'existe (par exemple {example}).",
                    "Moving a piece from the special squares into 27 is allowed only when no "
                    "other move, forward or backward, exists (for example {example}).",
                ),
                allowed=(
                    ("Aucun autre coup : vers 27, forcé.", "Nothing else moves: into 27, forced."),
                    (
                        "Aucun autre coup n'existe : il faut jouer le pion de la case {square} "
                        "vers la case 27.",
                        "No other move exists: the piece on square {square} must go into "
                        "square 27.",
                    ),
                ),
                quote="S'il est impossible de jouer, en avançant ou en reculant, il faut jouer les "
                "pions se trouvant sur les cases spéciales, même si cela conduit à tomber sur la "
                "case 27.",
                decision="S9",
            ),
            _shared(
                "backward",
                "S10",
                SOURCE,
                "Migo rule 15",
                quote="Chaque coup qui ne permet pas d'avancer doit être utilisé pour reculer.",
                decision="S10",
            ),
            _shared(
                "backward-occupied",
                "S10",
                SOURCE,
                "Migo rule 15",
                quote="Il est impossible de reculer vers une case occupée, quelle que soit la "
                "couleur de l'occupant",
                decision="S10",
            ),
            _rule(
                "backward-wall",
                "S10",
                SOURCE,
                "Migo rule 15",
                (
                    "Recul au-dessus d'un mur ({square}) : non.",
                    "Cannot move back over wall at {square}.",
                ),
                (
                    "On ne peut pas reculer en sautant par-dessus un mur adverse (case {square}).",
                    "A piece cannot move backward over an enemy wall (square {square}).",
                ),
                quote="ni de reculer en sautant par-dessus un mur adverse.",
                decision="S10",
            ),
            _rule(
                "backward-refuge",
                "S10",
                DECISION,
                "DECISIONS.md S10",
                ("Les pions sur 26-30 ne reculent pas.", "Pieces on 26-30 never move back."),
                (
                    "Notre lecture : un pion sur les cases spéciales 26 à 30 (ici {square}) ne "
                    "recule pas ; il n'en sort que par la table de sortie ou la case 27.",
                    "Our reading: a piece on the special squares 26 to 30 (here {square}) does "
                    "not move backward; it leaves them only by the exit table or square 27.",
                ),
                decision="S10",
            ),
            _rule(
                "win",
                "S11",
                SOURCE,
                "Migo rule 6",
                ("Tous les pions sortis : victoire !", "All pieces off: this side wins!"),
                (
                    "Le premier à faire sortir tous ses pions gagne la partie.",
                    "The first to bear off all their pieces wins the game.",
                ),
                quote="Le premier à faire sortir tous ses pions gagne la partie.",
                decision="S11",
            ),
        ]
    )


def _general_not_your_piece(citation: str, quote: str) -> Rule:
    return _rule(
        "not-your-piece",
        "G1",
        SOURCE,
        citation,
        ("Pas de pion à vous sur la case {square}.", "No piece of yours on square {square}."),
        (
            "Un coup déplace un pion du joueur qui a lancé ; la case {square} n'en porte pas.",
            "A move carries a piece of the player who threw; square {square} holds none.",
        ),
        quote=quote,
    )


def _general_one_per_square(citation: str, quote: str) -> Rule:
    return _rule(
        "own-piece",
        "G2",
        SOURCE,
        citation,
        ("{square} occupé par votre pion.", "{square} holds your own piece."),
        (
            "Un seul pion par case : un pion ne peut pas s'arrêter sur la case {square}, "
            "occupée par un pion de sa couleur.",
            "One piece per square: a piece cannot stop on square {square}, which holds a "
            "piece of its own colour.",
        ),
        quote=quote,
    )


def _kendall_rules() -> RuleBook:
    return RuleBook(
        [
            *_shared_rules(
                KENDALL, SOURCE, "seed 003, « Impossible d'avancer »", "on passe son tour"
            ),
            _rule(
                "distance",
                "K1",
                DECISION,
                "seed 003, « Début de la partie »; the stick table is DECISIONS.md K1",
                (
                    "Un {throw} avance un pion de {throw} cases.",
                    "A {throw} moves one piece {throw} squares.",
                ),
                (
                    "Le lancer ({throw}) fait avancer un seul pion d'exactement {throw} cases "
                    "(4 faces noires valent 6).",
                    "The throw ({throw}) moves one piece exactly {throw} squares "
                    "(four black faces count 6).",
                ),
                quote="S'il tire 1, 4 ou 6, il avance le pion de son choix puis rejoue à nouveau.",
                decision="K1",
            ),
            _rule(
                "pieces",
                "K2",
                DECISION,
                "DECISIONS.md K2, inferred from seed 003, « Début de la partie »",
                ("5 pions chacun sur 1-10.", "5 pieces each on squares 1-10."),
                (
                    "Chaque camp a 5 pions sur les cases 1 à 10 : blancs sur les impaires, "
                    "noirs sur les paires.",
                    "Each side has 5 pieces on squares 1 to 10: white on the odd squares, "
                    "black on the even ones.",
                ),
                quote="Ce joueur prend alors les pions noirs et déplace celui de la case 10 sur "
                "la case 11.",
                decision="K2",
            ),
            _shared(
                "opening",
                "K3",
                SOURCE,
                "seed 003, « Début de la partie »",
                quote="Les joueurs lancent les bâtonnets chacun leur tour, jusqu'à ce que l'un "
                "d'eux réalise 1 point.",
                decision="K3",
            ),
            _rule(
                "opening-one",
                "K3",
                SOURCE,
                "seed 003, « Début de la partie »",
                (
                    "Joueur {seat} : noirs, 10-11, relancez.",
                    "Player {seat}: black, 10-11, throw again.",
                ),
                (
                    "Le joueur {seat} a tiré le premier 1 : il prend les noirs, avance le pion "
                    "de la case 10 en 11 et relance.",
                    "Player {seat} threw the first 1: they take black, move the piece on 10 to "
                    "11 and throw again.",
                ),
                quote="Ce joueur prend alors les pions noirs et déplace celui de la case 10 sur "
                "la case 11. Après ce premier déplacement le même joueur garde la main",
                decision="K3",
            ),
            _rule(
                "first-move",
                "K3",
                SOURCE,
                "seed 003, « Début de la partie »; DECISIONS.md K3",
                (
                    "1er coup blanc : le pion de {square}.",
                    "White's first move: the piece on {square}.",
                ),
                (
                    "Le premier coup des blancs part de la case {square} tant qu'un pion y est et "
                    "peut jouer (sinon, notre lecture : n'importe quel pion).",
                    "White's first move starts from square {square} while a piece stands there "
                    "and can move (otherwise, our reading: any piece).",
                ),
                quote="Le second joueur joue son premier coup à partir de la case 9, ensuite il "
                "peut avancer n'importe quel pion.",
                decision="K3",
            ),
            _general_not_your_piece(
                KENDALL + ", « Tours de jeu »", "il avance le pion de son choix"
            ),
            _general_one_per_square(
                KENDALL + ", « Restrictions aux attaques »",
                "Deux pions ne peuvent occuper la même case",
            ),
            _rule(
                "swap",
                "K4",
                SOURCE,
                "seed 003, « Attaque d'un pion »",
                (
                    "Attaque : échange, l'adverse va en {back}.",
                    "Attack: swap, enemy goes to {back}.",
                ),
                (
                    "Le pion adverse sur {square} est attaqué : il recule sur la case {back} "
                    "laissée vacante par l'assaillant.",
                    "The enemy piece on {square} is attacked: it goes back to square {back}, "
                    "which the attacker left.",
                ),
                quote="ce dernier est attaqué et doit reculer sur la case laissée vacante par son "
                "assaillant.",
                decision="K4",
            ),
            _shared(
                "protected",
                "K4",
                SOURCE,
                "seed 003, « Restrictions aux attaques »",
                quote="deux pions occupant des cases contiguës se protègent mutuellement et ne "
                "peuvent donc pas être attaqués.",
                decision="K4",
            ),
            _rule(
                "wall",
                "K4",
                SOURCE,
                "seed 003, « Restrictions aux attaques »",
                (
                    "Mur adverse en {square} : infranchissable.",
                    "Enemy wall at {square}: no passing.",
                ),
                (
                    "Trois pions adverses contigus ou plus (dont celui sur {square}) forment un "
                    "mur : "
                    "ni attaquable ni franchissable, pas même pour sortir.",
                    "Three or more adjacent enemy pieces (one on {square}) form a wall: they "
                    "can be "
                    "neither attacked nor passed, not even to bear off.",
                ),
                quote="Trois pions (ou plus) occupant des cases contiguës sont évidemment "
                "inattaquable mais en plus en plus infranchissables.",
                decision="K4",
            ),
            _rule(
                "own-wall",
                "K4",
                DECISION,
                "DECISIONS.md K4 (as Migo rule 11)",
                ("Saute son propre mur : permis.", "Jumps its own wall: allowed."),
                (
                    "Notre lecture : un pion peut passer par-dessus un mur de sa couleur "
                    "(case {square}), comme dans la règle 11 de Migo.",
                    "Our reading: a piece may pass over a wall of its own colour "
                    "(square {square}), as in Migo's rule 11.",
                ),
                decision="K4",
            ),
            _shared(
                "refuge",
                "K5",
                SOURCE,
                "seed 003, « Cases spéciales »",
                quote="Les cases 26, 28, 29, et 30 sont des refuges sur lesquels on ne peut pas "
                "attaquer les pions.",
                decision="K5",
            ),
            _rule(
                "water",
                "K5",
                SOURCE,
                "seed 003, « Cases spéciales »",
                (
                    "Tombe en {square} : retour en {landing}.",
                    "Falls in {square}: back to {landing}.",
                ),
                (
                    "Un pion qui tombe sur la case {square} retourne case 1, ou sur la première "
                    "case vide : ici {landing}.",
                    "A piece that lands on square {square} goes back to square 1, or the first "
                    "empty square: here {landing}.",
                ),
                quote="Lorsqu'un pion tombe sur la case 27, il doit retourner sur la case 1 et "
                "recommencer son parcours. Si la case 1 est occupée, on pose le pion sur la "
                "première case vide.",
                decision="K5",
            ),
            _rule(
                "bear-off",
                "K6",
                SOURCE,
                "seed 003, « Sortie des pions »",
                ("Sortie du pion de {square}.", "The piece on {square} bears off."),
                (
                    "Tous les pions sont sur la dernière ligne : un lancer qui mène au moins une "
                    "case après 30 sort le pion (ici de {square} avec {throw}).",
                    "Every piece is on the last row: a throw that carries a piece at least one "
                    "square past 30 bears it off (here from {square} with {throw}).",
                ),
                quote="il doit faire avec les bâtonnets des chiffres lui permettant d'aller au "
                "moins une case après la case 30.",
                decision="K6",
            ),
            _rule(
                "bear-off-home",
                "K6",
                SOURCE,
                "seed 003, « Sortie des pions »",
                ("Sortie interdite : pion en {square}.", "No bearing off: a piece is on {square}."),
                (
                    "On ne sort que lorsque tous ses pions sont sur la dernière ligne "
                    "(cases {row} à 30) ; le pion de la case {square} n'y est pas.",
                    "Pieces bear off only when all of a player's pieces are on the last row "
                    "(squares {row} to 30); the piece on square {square} is not.",
                ),
                quote="Lorsqu'un joueur a avancé tous ses pions sur la dernière ligne (cases 21 "
                "à 30), il peut commencer à sortir ses pions du jeu.",
                decision="K6",
            ),
            _shared(
                "backward",
                "K7",
                SOURCE,
                "seed 003, « Impossible d'avancer »",
                quote="Si un coup ne permet pas d'avancer, il doit être utilisé pour reculer en "
                "sens inverse.",
                decision="K7",
            ),
            _shared(
                "backward-occupied",
                "K7",
                SOURCE,
                "seed 003, « Impossible d'avancer »",
                quote="un pion ne peut reculer sur une case occupée par un autre pion.",
                decision="K7",
            ),
            _rule(
                "backward-wall",
                "K7",
                DECISION,
                "DECISIONS.md K7",
                (
                    "Recul au-dessus d'un mur ({square}) : non.",
                    "Cannot move back over wall at {square}.",
                ),
                (
                    "Notre lecture : un mur adverse (case {square}) est infranchissable aussi "
                    "en reculant.",
                    "Our reading: an enemy wall (square {square}) cannot be passed moving "
                    "backward either.",
                ),
                decision="K7",
            ),
            _rule(
                "win",
                "K8",
                DECISION,
                "DECISIONS.md K8 (seed 003 does not say how the game is won)",
                ("Les 5 pions sortis : victoire !", "All 5 pieces off: this side wins!"),
                (
                    "Le premier à sortir ses 5 pions gagne la partie.",
                    "The first to bear off all 5 pieces wins the game.",
                ),
                decision="K8",
            ),
        ]
    )


SENET_MIGO = SenetRules(
    name="senet-migo",
    source="001_69f583b695a18a0e.txt",
    title="Senet (Migo's rules, 19 numbered rules)",
    rules=_migo_rules(),
    throws=StickTable(sticks=4, scores=(5, 1, 2, 3, 4), extra=frozenset({1, 4, 5})),
    pieces=7,
    opener=WHITE,
    exact_square=26,
    exits={
        26: {1: 27, 2: 28, 3: 29, 4: 30, 5: OFF},
        28: {3: OFF},
        29: {2: OFF},
        30: {1: OFF},
    },
    backward_from_refuges=False,
)

SENET_KENDALL = SenetRules(
    name="senet-kendall",
    title="Senet, seed 003 rules (two-coloured sticks: 1-4 and 6)",
    source="003_46da88d145fd593e.txt",
    rules=_kendall_rules(),
    throws=StickTable(sticks=4, scores=(6, 1, 2, 3, 4), extra=frozenset({1, 4, 6})),
    pieces=5,
    opener=BLACK,
    opening_move=(10, 11),
    first_move_square=9,
    home_row=21,
)

SenetRules.family = Senet
