"""The ur-tablet rule set as data: its parameters, and every rule with its source and texts.

Ids are those of ``DECISIONS.md`` (U1-U11, T1-T2); G1 is a source-text rule that the
decisions take for granted. Citations name the section of the source text (seed 002,
« Déplacement des pions », ...); a rule that rests on a reading marked **(ours)** in
DECISIONS.md is our interpretation and says which decision it follows.
"""

from __future__ import annotations

from functools import partial

from companion.games.ur import Ur, UrRules
from companion.rules import Basis, Rule, RuleBook, bilingual

SOURCE, DECISION = Basis.SOURCE, Basis.DECISION
SEED = "seed 002"
_TextPair = tuple[str, str]


_rule = partial(bilingual, decision_from_id=True)


def _section(name: str) -> str:
    return f"{SEED}, « {name} »"


MOVING = _section("Déplacement des pions")
CAPTURES = _section("Sortie des pions adverses")
PLAY = _section("Déroulement du jeu")
SETUP = _section("Préparation du jeu")
VICTORY = _section("Victoire")


def _turn_rules() -> list[Rule]:
    return [
        _rule(
            "pass",
            "T1",
            SOURCE,
            PLAY,
            ("Un coup existe : il faut jouer.", "A move exists: you must play."),
            (
                "Le jeu est obligatoire : passer n'est permis que si le lancer ne permet "
                "aucun coup ; ici un coup existe.",
                "Moving is compulsory: passing is allowed only when the throw allows no "
                "move at all; here a move exists.",
            ),
            allowed=(
                ("Aucun coup possible : passez.", "No move possible: pass."),
                (
                    "Le lancer ne permet aucun coup : le joueur passe son tour.",
                    "The throw allows no move: the player passes their turn.",
                ),
            ),
            quote="Le jeu est obligatoire si le joueur en a la possibilité. Si aucun "
            "déplacement n'est possible, le joueur passe son tour",
            decision="U9",
        ),
        _rule(
            "hand-passes",
            "T2",
            DECISION,
            "DECISIONS.md T2 and U2 (no throw gives another throw)",
            ("Main suivante : {side_fr} jouent.", "Hand passes: {side_en} to play."),
            (
                "Le coup joué, la main passe, car aucun lancer ne permet de rejouer : "
                "maintenant {side_fr} jouent.",
                "Once the move is played the hand passes, since no throw gives another "
                "throw: now {side_en} to play.",
            ),
        ),
        _rule(
            "not-your-piece",
            "G1",
            SOURCE,
            MOVING,
            ("Pas de pion à vous sur la case {square}.", "No piece of yours on square {square}."),
            (
                "Un coup déplace un pion du joueur qui a lancé ; sa case {square} n'en porte pas.",
                "A move carries a piece of the player who threw; their square {square} holds none.",
            ),
            quote="Le nombre de points obtenu peut être joué avec n'importe quel pion de sa "
            "couleur",
            decision="U6",
        ),
    ]


def _board_rules() -> list[Rule]:
    return [
        _rule(
            "board",
            "U1",
            DECISION,
            "DECISIONS.md U1 (the source names the board, not the path)",
            (
                "16 cases par joueur : 1-4 à soi, 5-16 partagées.",
                "16 squares each: 1-4 your own, 5-16 shared.",
            ),
            (
                "Chaque joueur parcourt 16 cases : les cases 1 à 4 sont les siennes, 5 à 16 "
                "sont partagées ; les cases chance sont 4, 8, 12 et 16. Sur le plateau d'Ur "
                "les deux parcours se croisent dans le bloc de 3x2 (la case 12 de l'un est "
                "la 16 de l'autre) ; sur la tablette de 20 cases ils se suivent.",
                "Each player follows 16 squares: squares 1 to 4 are their own, 5 to 16 are "
                "shared; the chance squares are 4, 8, 12 and 16. On the Ur board the two "
                "tracks cross in the 3x2 block (one's square 12 is the other's 16); on the "
                "20-square tablet board they run side by side.",
            ),
            quote="Cette variante tardive, qui se joue sur un plateau identique à celui du "
            "jeu des 20 cases",
        ),
        _rule(
            "track-end",
            "U1",
            DECISION,
            "DECISIONS.md U1",
            (
                "Pas de case {square} : on sort par « off ».",
                "No square {square}: bear off with 'off'.",
            ),
            (
                "Le parcours compte 16 cases : il n'y a pas de case {square} ; le pion "
                "{piece} ne quitte le parcours qu'en sortant (écrit « off », par exemple "
                "14-off).",
                "The track has 16 squares: there is no square {square}; piece {piece} "
                "leaves the track only by bearing off (written 'off', e.g. 14-off).",
            ),
        ),
        _rule(
            "distance",
            "U2",
            SOURCE,
            MOVING,
            (
                "Un {throw} avance un pion de {throw} cases.",
                "A {throw} moves one piece {throw} squares.",
            ),
            (
                "Le lancer ({throw}) fait avancer un seul pion d'exactement {throw} cases : "
                "le dé seul ou avec « non » donne sa valeur, « oui » change 1, 2, 3, 4 en "
                "5, 6, 7, 10.",
                "The throw ({throw}) moves one piece exactly {throw} squares: the die alone "
                "or with a 'no' counts its value, a 'yes' turns 1, 2, 3, 4 into 5, 6, 7, 10.",
            ),
            quote="Avec le dé uniquement, le nombre de points de déplacement correspond à "
            "celui obtenu.",
        ),
    ]


def _entry_rules() -> list[Rule]:
    return [
        _rule(
            "enter",
            "U3",
            DECISION,
            f"{PLAY}; DECISIONS.md U3",
            (
                "Le {throw} fait entrer le pion {piece} en {square}.",
                "The {throw} enters piece {piece} on {square}.",
            ),
            (
                "Un lancer de {throw} fait entrer le pion numéro {piece} sur la case "
                "{square} (2 le pion 1 sur 1, 5 le 2 sur 5, 6 le 3 sur 6, 7 le 4 sur 7, 10 "
                "le 5 sur 10) ; entrer ne paie ni ne coûte rien pour les cases chance "
                "sautées (notre lecture).",
                "A throw of {throw} enters piece number {piece} on square {square} (2 piece "
                "1 on 1, 5 piece 2 on 5, 6 piece 3 on 6, 7 piece 4 on 7, 10 piece 5 on 10); "
                "entering neither pays nor costs anything for chance squares skipped (our "
                "reading).",
            ),
            quote="Un lancer particulier est nécessaire pour rentrer chacun des pions selon "
            "sa valeur",
        ),
        _rule(
            "entry-square",
            "U3",
            SOURCE,
            PLAY,
            (
                "Aucun pion n'entre en {square}.",
                "No piece enters on {square}.",
            ),
            (
                "Les pions entrent sur les cases {squares} seulement (pions 1 à 5) ; aucun "
                "n'entre sur la case {square}.",
                "Pieces enter only on squares {squares} (pieces 1 to 5); none enters on "
                "square {square}.",
            ),
            quote="Un lancer de « 2 » permet de rentrer le pion numéro 1 sur la 1e case",
        ),
        _rule(
            "entry-throw",
            "U3",
            SOURCE,
            PLAY,
            (
                "Le pion {piece} n'entre qu'avec un {need}.",
                "Piece {piece} enters only with a {need}.",
            ),
            (
                "Le pion {piece} entre sur la case {square} avec un lancer de {need} "
                "exactement ; ce {throw} ne le fait pas entrer.",
                "Piece {piece} enters on square {square} with a throw of exactly {need}; "
                "this {throw} does not enter it.",
            ),
            quote="Un lancer particulier est nécessaire pour rentrer chacun des pions selon "
            "sa valeur",
        ),
        _rule(
            "entry-order",
            "U3",
            DECISION,
            f"{PLAY}; DECISIONS.md U3",
            (
                "Le pion {first} doit entrer avant le {piece}.",
                "Piece {first} must enter before piece {piece}.",
            ),
            (
                "Les pions entrent la première fois dans l'ordre : le pion {piece} attend "
                "que le pion {first} soit entré. Un pion sorti par l'adversaire rentre, lui, "
                "à tout moment (notre lecture).",
                "Pieces first enter in numeric order: piece {piece} waits until piece "
                "{first} has entered. A captured piece re-enters at any time (our reading).",
            ),
            quote="L'ordre de rentrée des pions doit être respecté (le pion 2 doit être rentré "
            "après le 1 et avant le 3, etc.).",
        ),
        _rule(
            "entered",
            "U3",
            SOURCE,
            PLAY,
            (
                "Le pion {piece} est déjà entré.",
                "Piece {piece} has already entered.",
            ),
            (
                "Le pion {piece} est sur le plateau ou déjà sorti : seul un pion hors du "
                "plateau (pas encore entré, ou sorti par l'adversaire) peut entrer.",
                "Piece {piece} is on the board or borne off: only a piece off the board "
                "(not entered yet, or captured) can enter.",
            ),
            quote="Faire rentrer tous ses pions sur le plateau, par ordre numérique",
        ),
        _rule(
            "pay",
            "U4",
            SOURCE,
            PLAY,
            (
                "Payez {cost} : le pion {piece} entre en {square}.",
                "Pay {cost}: piece {piece} enters on {square}.",
            ),
            (
                "Au lieu de lancer, le joueur paie {cost} jetons à la cagnotte et fait "
                "entrer le pion {piece} sur la case {square} ; ce paiement remplace le "
                "lancer.",
                "Instead of throwing, the player pays {cost} tokens into the pot and enters "
                "piece {piece} on square {square}; the payment replaces the throw.",
            ),
            quote="Chaque joueur peut aussi choisir de payer à la cagnotte le score nécessaire "
            "pour rentrer le pion correspondant.",
        ),
        _rule(
            "pay-tokens",
            "U4",
            SOURCE,
            PLAY,
            (
                "Entrer le pion {piece} coûte {cost} ; vous avez {tokens}.",
                "Piece {piece} costs {cost} tokens; you have {tokens}.",
            ),
            (
                "Payer pour faire entrer le pion {piece} coûte {cost} jetons ; le joueur "
                "n'en a que {tokens}.",
                "Paying to enter piece {piece} costs {cost} tokens; the player has only {tokens}.",
            ),
            quote="payer à la cagnotte le score nécessaire pour rentrer le pion correspondant",
        ),
        _rule(
            "pay-after-throw",
            "U4",
            SOURCE,
            PLAY,
            (
                "Payer s'annonce avant de lancer.",
                "Paying must come before the throw.",
            ),
            (
                "Payer pour entrer (pay-{square}) s'annonce avant de lancer et remplace le "
                "lancer ; un lancer est déjà fait : jouez-le.",
                "Paying to enter (pay-{square}) is announced before throwing and replaces "
                "the throw; a throw has been made: play it.",
            ),
            quote="Ce choix doit être annoncé avant de lancer le dé et remplace celui-ci.",
        ),
        _rule(
            "enter-instead",
            "U5",
            SOURCE,
            PLAY,
            (
                "Au choix : entrer le pion {piece} en {square}.",
                "Your choice: enter piece {piece} on {square}.",
            ),
            (
                "Le {throw} pourrait avancer un pion déjà engagé ; il peut aussi faire "
                "entrer le pion {piece} sur la case {square} à la place.",
                "The {throw} could move a piece already in play; it may enter piece {piece} "
                "on square {square} instead.",
            ),
            quote="il a la possibilité de faire rentrer le pion correspondant au lieu d'en "
            "avancer un déjà engagé.",
        ),
    ]


def _moving_rules() -> list[Rule]:
    return [
        _rule(
            "forward",
            "U6",
            SOURCE,
            MOVING,
            ("Les pions n'avancent que vers l'avant.", "Pieces move forward only."),
            (
                "Les pions avancent toujours vers l'avant le long du parcours ; le pion de "
                "la case {square} ne peut pas reculer ni rester.",
                "Pieces always move forward along the track; the piece on square {square} "
                "cannot move back or stay.",
            ),
            quote="Le déplacement des pions s'effectue le long du parcours, toujours vers l'avant",
        ),
        _rule(
            "one-piece",
            "U6",
            SOURCE,
            MOVING,
            ("Un seul pion prend tout le lancer.", "One piece takes the whole throw."),
            (
                "Les points du lancer ({throw}) se jouent avec un seul pion ; ils ne se "
                "répartissent pas entre plusieurs.",
                "The throw's points ({throw}) are played by one piece; they cannot be split "
                "between several.",
            ),
            quote="mais ne peut pas être réparti entre plusieurs pions.",
        ),
        _rule(
            "own-piece",
            "U6",
            SOURCE,
            CAPTURES,
            ("{square} occupé par votre pion {piece}.", "{square} holds your piece {piece}."),
            (
                "Deux pions ne peuvent occuper la même case : la case {square} porte déjà "
                "votre pion {piece}.",
                "Two pieces never share a square: square {square} already holds your piece "
                "{piece}.",
            ),
            quote="Deux pions ne peuvent jamais occuper la même case.",
        ),
        _rule(
            "protected",
            "U6",
            SOURCE,
            CAPTURES,
            (
                "Pion {piece} protégé sur la case chance.",
                "Piece {piece} is safe on a chance square.",
            ),
            (
                "Le pion adverse {piece} est sur une case chance (votre case {square}) : il "
                "est protégé et ne peut être sorti ; jouez un autre pion ou passez.",
                "The enemy piece {piece} stands on a chance square (your square {square}): "
                "it is safe and cannot be captured; move another piece or pass.",
            ),
            quote="Un pion se trouvant sur une case marquée est protégé, il ne peut être "
            "sorti et le joueur attaquant devra jouer un autre pion ou passer son tour",
        ),
        _rule(
            "capture",
            "U6",
            SOURCE,
            CAPTURES,
            (
                "Pion adverse {piece} sorti ; son joueur paie {paid}.",
                "Enemy piece {piece} captured; its owner pays {paid}.",
            ),
            (
                "Le pion adverse {piece} sur la case {square} est sorti du jeu et devra "
                "rentrer ; son propriétaire donne {paid} jeton(s) à l'attaquant.",
                "The enemy piece {piece} on square {square} is captured and must enter "
                "again; its owner gives the attacker {paid} token(s).",
            ),
            quote="Lorsqu'un pion tombe sur une case occupée par un pion adverse, ce dernier "
            "est sorti du jeu. Il doit recommencer le parcours en étant entré de nouveau et "
            "le joueur possédant le pion sortant doit donner un jeton au joueur adverse.",
        ),
    ]


def _token_rules() -> list[Rule]:
    return [
        _rule(
            "chance-gain",
            "U7",
            SOURCE,
            PLAY,
            (
                "Case chance {square} : prend {taken} jeton(s).",
                "Chance square {square}: takes {taken} token(s).",
            ),
            (
                "Le pion {piece} s'arrête sur la case chance {square} : le joueur prend "
                "{piece} jetons à la cagnotte (ce qu'il en reste si elle est plus pauvre) ; "
                "ici {taken}.",
                "Piece {piece} stops on chance square {square}: the player takes {piece} "
                "tokens from the pot (what is left if it holds fewer); here {taken}.",
            ),
            quote="le joueur reçoit un nombre de jetons égal à la valeur du pion de la cagnotte.",
        ),
        _rule(
            "chance-pass",
            "U7",
            SOURCE,
            PLAY,
            (
                "Passe la case chance {square} : paie {paid}.",
                "Passes chance square {square}: pays {paid}.",
            ),
            (
                "Le pion {piece} passe sur la case chance {square} sans s'y arrêter : le "
                "joueur dépose {piece} jetons dans la cagnotte ; ici {paid}.",
                "Piece {piece} passes over chance square {square} without stopping: the "
                "player puts {piece} tokens into the pot; here {paid}.",
            ),
            quote="le joueur d'un pion passant sur une case chance sans s'y arrêter est "
            "pénalisé : le joueur doit déposer un nombre de jetons égal à la valeur du pion "
            "dans la cagnotte.",
        ),
        _rule(
            "bear-off",
            "U8",
            SOURCE,
            PLAY,
            ("Sortie du pion {piece} de {square}.", "Piece {piece} bears off from {square}."),
            (
                "Le lancer ({throw}) mène exactement le pion {piece} de la case {square} à "
                "la sortie, un pas après la case 16 : il sort du jeu.",
                "The throw ({throw}) carries piece {piece} from square {square} exactly to "
                "the exit, one step past square 16: it bears off.",
            ),
            quote="Un lancer exact est nécessaire pour sortir les pions du jeu.",
        ),
        _rule(
            "bear-off-exact",
            "U8",
            SOURCE,
            PLAY,
            (
                "Sortie de {square} : il faut {need} tout juste.",
                "To bear off from {square} takes exactly {need}.",
            ),
            (
                "Un pion sort avec le lancer exact qui le mène un pas après la case 16 : "
                "depuis {square} il faut {need}, pas {throw}.",
                "A piece bears off with the exact throw that takes it one step past square "
                "16: from {square} that is {need}, not {throw}.",
            ),
            quote="Un lancer exact est nécessaire pour sortir les pions du jeu.",
        ),
        _rule(
            "bear-off-payment",
            "U8",
            DECISION,
            f"{PLAY}; DECISIONS.md U8",
            (
                "Sort sans s'arrêter en {square} : paie {paid}.",
                "Off without stopping on {square}: pays {paid}.",
            ),
            (
                "Notre lecture : un pion qui sort sans s'être arrêté sur la case {square} "
                "paie {owed} jetons à la cagnotte, au lieu du paiement de case chance ; ici "
                "{paid}.",
                "Our reading: a piece that bears off without having stopped on square "
                "{square} pays {owed} tokens into the pot, instead of the chance-square "
                "payment; here {paid}.",
            ),
            quote="Ne pas passer sur la dernière case marquée implique de poser deux pions "
            "dans la cagnotte.",
        ),
    ]


def _turn_token_rules() -> list[Rule]:
    return [
        _rule(
            "pass-payment",
            "U9",
            SOURCE,
            PLAY,
            ("Passe : {paid} jeton à la cagnotte.", "Pass: {paid} token into the pot."),
            (
                "Sans déplacement possible, le joueur passe son tour et dépose un jeton dans "
                "la cagnotte ; ici {paid}.",
                "With no move possible, the player passes and puts one token into the pot; "
                "here {paid}.",
            ),
            quote="Si aucun déplacement n'est possible, le joueur passe son tour et dépose "
            "un jeton dans la cagnotte.",
        ),
        _rule(
            "debt",
            "U9",
            DECISION,
            f"{PLAY}; DECISIONS.md U9",
            (
                "Jetons insuffisants : {side_fr} passent un tour.",
                "Short of tokens: {side_en} skips a turn.",
            ),
            (
                "Dette : {side_fr} ne peuvent pas payer tout ce qu'ils doivent ; ils paient "
                "ce qu'ils ont et passent en plus leur prochain tour (pour toute dette, notre "
                "lecture).",
                "Debt: {side_en} cannot pay all they owe; they pay what they have and also "
                "skip their next turn (for any debt, our reading).",
            ),
            quote="Lorsqu'un joueur ne dispose plus d'assez de jetons, il passe en plus le "
            "tour suivant (il passe donc deux tours consécutifs).",
        ),
        _rule(
            "skip",
            "U9",
            DECISION,
            f"{PLAY}; DECISIONS.md U9",
            ("Dette : {side_fr} passent ce tour.", "Debt: {side_en} skips this turn."),
            (
                "Dette : {side_fr} n'avaient pas pu tout payer ; ce tour-ci est sauté, sans "
                "autre coût, et la main passe.",
                "Debt: {side_en} could not pay all they owed; this turn is skipped, at no "
                "further cost, and the hand passes.",
            ),
            quote="il passe en plus le tour suivant",
        ),
        _rule(
            "start",
            "U10",
            DECISION,
            f"{SETUP}; DECISIONS.md U10",
            (
                "15 jetons chacun, 20 en cagnotte ; pas d'ouverture.",
                "15 tokens each, 20 in the pot; no opening.",
            ),
            (
                "Chaque joueur reçoit 15 jetons, les 20 autres vont à la cagnotte ; le "
                "plateau est vide. Qui commence se choisit à table (il prend les blancs) : "
                "pas de lancer d'ouverture.",
                "Each player gets 15 tokens, the other 20 go to the pot; the board is "
                "empty. Who starts is chosen at the table (and takes white): no opening "
                "throw.",
            ),
            quote="Chaque joueur reçoit 5 pions de même couleur et 15 jetons. Les jetons "
            "restants sont déposés dans la cagnotte. Le plateau est vide au départ du jeu.",
        ),
        _rule(
            "win",
            "U11",
            SOURCE,
            VICTORY,
            ("Tous les pions sortis : {side_fr} gagnent !", "All pieces off: {side_en} wins!"),
            (
                "Le premier joueur à avoir sorti tous ses pions gagne : {side_fr}.",
                "The first player to bear off all their pieces wins: {side_en}.",
            ),
            quote="Le premier joueur à avoir sorti tous ses pions gagne.",
        ),
        _rule(
            "settlement",
            "U11",
            DECISION,
            f"{VICTORY}; DECISIONS.md U11",
            (
                "Gain : cagnotte {pot}, perdant {paid} sur {owed}.",
                "Wins the pot ({pot}) and {paid} of {owed} owed.",
            ),
            (
                "Le gagnant reçoit la cagnotte ({pot} jetons) ; le perdant lui donne 1 "
                "jeton par pion en jeu ({on_board}) et 2 par pion hors du plateau, pas "
                "entré ou sorti par l'adversaire ({waiting}) : {owed} dus, {paid} payés.",
                "The winner takes the pot ({pot} tokens); the loser pays them 1 token per "
                "piece on the board ({on_board}) and 2 per piece off the board, not entered "
                "or captured ({waiting}): {owed} owed, {paid} paid.",
            ),
            quote="Il reçoit le contenu de la cagnotte et le joueur perdant lui donne 1 "
            "jeton par pion en jeu et 2 jetons par pion non entrés sur le plateau.",
        ),
    ]


def ur_tablet_rules() -> RuleBook:
    return RuleBook(
        [
            *_turn_rules(),
            *_board_rules(),
            *_entry_rules(),
            *_moving_rules(),
            *_token_rules(),
            *_turn_token_rules(),
        ]
    )


UR_TABLET = UrRules(
    name="ur-tablet",
    title="The late Royal Game of Ur (die and stick, numbered pieces, tokens and pot)",
    source="002_8cfef498af0fa6e7.txt",
    rules=ur_tablet_rules(),
)

UrRules.family = Ur
