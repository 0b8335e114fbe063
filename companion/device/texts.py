"""The device's own words, in English and French (the rules' texts come from the engine)."""

from __future__ import annotations

from collections.abc import Mapping

LANGUAGES = ("en", "fr")
LANGUAGE_NAMES: Mapping[str, str] = {"en": "English", "fr": "Français"}

_TEXTS: Mapping[str, tuple[str, str]] = {
    "play-again": ("Play again", "Rejouez"),
    "pass": ("Pass", "Main suivante"),
    "throw-now": ("Throw the sticks", "Lancez les bâtonnets"),
    "throw-by-hand": ("No camera: enter the throw", "Sans caméra : saisir le lancer"),
    "by-hand": ("by hand: {choice}", "à la main : {choice}"),
    "random": ("random", "au hasard"),
    "throw-choice": ("{score} ({shown})", "{score} ({shown})"),
    "instead": ("instead: {move}", "au lieu : {move}"),
    "moves-count": ("{count} moves", "{count} coups"),
    "one-move": ("1 move", "1 coup"),
    "no-move": ("No move: {why}", "Aucun coup : {why}"),
    "hint-choose": ("OK: played  hold OK: why?", "OK : joué  maintenir : pourquoi ?"),
    "hint-throw": ("back: undo  hold back: menu", "retour : annuler  maintenir : menu"),
    "why-title": ("Why? square {square}", "Pourquoi ? case {square}"),
    "allowed": ("{move}: allowed", "{move} : permis"),
    "refused": ("{move}: not allowed", "{move} : interdit"),
    "no-candidate": ("no move with this throw", "aucun coup avec ce lancer"),
    "game-over": ("Game over", "Partie finie"),
    "wins": ("{who} wins", "{who} gagnent"),
    "hint-over": ("OK: menu  back: undo", "OK : menu  retour : annuler"),
    "menu": ("companion", "companion"),
    "resume": ("Resume: {game}", "Reprendre : {game}"),
    "new-game": ("New game", "Nouvelle partie"),
    "rules": ("Rules: {game}", "Règles : {game}"),
    "language": ("Language: {name}", "Langue : {name}"),
    "settings": ("Settings", "Réglages"),
    "contrast": ("Contrast: {level}", "Contraste : {level}"),
    "dev-mode": ("Dev mode: {state}", "Mode dév. : {state}"),
    "on": ("on", "oui"),
    "off": ("off", "non"),
    "display": ("Display: {driver}", "Écran : {driver}"),
    "address": ("IP: {address}", "IP : {address}"),
    "version": ("Version {version}", "Version {version}"),
    "calibrate": ("Calibrate camera", "Calibrer la caméra"),
    "enrol": ("Enrol new sticks", "Nouveaux bâtonnets"),
    "enrol-d4": ("Enrol a new d4", "Nouveau dé à 4 faces"),
    "enrol-yesno": ("Enrol a new yes/no stick", "Nouveau bâton oui/non"),
    "enrol-choice": ("Enrol a new d4 or stick", "Nouveau dé ou bâton"),
    "no-vision": (
        "The camera pipeline is not installed yet: enter throws by hand.",
        "La lecture par caméra n'est pas encore installée : saisir les lancers à la main.",
    ),
    # calibration and enrolment from the settings
    "calibrate-empty": (
        "Empty the tray, then OK.",
        "Videz le plateau, puis OK.",
    ),
    "calibrate-keys": ("OK: calibrate  back: cancel", "OK : calibrer  retour : annuler"),
    "camera-looking": ("The camera is looking...", "La caméra regarde..."),
    "calibrate-failed": (
        "Not calibrated: {problem}. The old calibration is kept.",
        "Pas de calibration : {problem}. L'ancienne est gardée.",
    ),
    "calibrated-markers": ("Tray found by its corner markers.", "Plateau trouvé par ses repères."),
    "calibrated-outline": ("Tray found by its outline.", "Plateau trouvé par son contour."),
    "used-from-now": ("Used from now on.", "Utilisé dès maintenant."),
    "enrol-nothing": (
        "{game}: only two-faced sticks and a numbered d4 are enrolled here.",
        "{game} : seuls des bâtonnets à deux faces et un dé numéroté s'apprennent ici.",
    ),
    "enrol-title": ("New sticks {step}/{steps}", "Bâtonnets {step}/{steps}"),
    "enrol-marked": (
        "Lay all {sticks} sticks flat and apart, marked face up, then OK.",
        "Posez les {sticks} bâtonnets à plat, écartés, face marquée dessus, puis OK.",
    ),
    "enrol-plain": (
        "Turn all {sticks} sticks over, plain face up, apart, then OK.",
        "Retournez les {sticks} bâtonnets, face lisse dessus, écartés, puis OK.",
    ),
    "enrol-title-d4": ("New d4 {step}/{steps}", "Dé {step}/{steps}"),
    "enrol-value-d4": (
        "Lay the d4 flat, {value} at its top point, then OK.",
        "Posez le dé à plat, le {value} au sommet, puis OK.",
    ),
    "enrol-title-yesno": ("Yes/no stick {step}/{steps}", "Bâton oui/non {step}/{steps}"),
    "enrol-yes-yesno": (
        'Lay the yes/no stick flat, its "yes" face up, then OK.',
        "Posez le bâton oui/non à plat, face « oui » dessus, puis OK.",
    ),
    "enrol-no-yesno": (
        'Turn the yes/no stick over, its "no" face up, then OK.',
        "Retournez le bâton oui/non, face « non » dessus, puis OK.",
    ),
    "enrol-keys": ("OK: picture  back: cancel", "OK : photo  retour : annuler"),
    "enrol-learning": ("Learning the faces...", "Apprentissage des faces..."),
    "enrol-learning-d4": ("Learning the numerals...", "Apprentissage des chiffres..."),
    "enrol-learning-yesno": ("Learning the faces...", "Apprentissage des faces..."),
    "picture-failed": ("No picture: {problem}", "Pas de photo : {problem}"),
    "sticks-seen": (
        "{seen} of {sticks} sticks seen lying flat.",
        "{seen} bâtonnets sur {sticks} vus à plat.",
    ),
    "sticks-apart": (
        "Lay them apart, away from the walls, hands out: OK to retake.",
        "Écartez-les, loin des bords, mains hors champ : OK pour refaire.",
    ),
    "unseen-d4": (
        "{seen} d4s seen lying flat: lay one alone.",
        "{seen} dés vus posés à plat : posez-en un seul.",
    ),
    "lay-it-flat": (
        "Lay it flat, away from the walls, hands out: OK to retake.",
        "Posez-le à plat, loin des bords, mains hors champ : OK pour refaire.",
    ),
    "unseen-yesno": (
        "{seen} yes/no sticks seen lying flat: lay one alone.",
        "{seen} bâtons oui/non vus à plat : posez-en un seul.",
    ),
    "enrol-failed-yesno": (
        "Not learnt: {problem}. The yes/no stick in use is kept.",
        "Pas appris : {problem}. Le bâton oui/non actuel est gardé.",
    ),
    "enrol-failed": (
        "Not learnt: {problem}. The sticks in use are kept.",
        "Pas appris : {problem}. Les bâtonnets actuels sont gardés.",
    ),
    "enrol-failed-d4": (
        "Not learnt: {problem}. The d4 in use is kept.",
        "Pas appris : {problem}. Le dé actuel est gardé.",
    ),
    "enrolled": (
        "New sticks learnt ({count} faces seen).",
        "Bâtonnets appris ({count} faces vues).",
    ),
    "enrolled-yesno": (
        "New yes/no stick learnt ({count} faces seen).",
        "Bâton oui/non appris ({count} faces vues).",
    ),
    "enrolled-d4": (
        "New d4 learnt (seen {count} times).",
        "Dé appris (vu {count} fois).",
    ),
    "enrol-cancelled": (
        "Cancelled: the sticks in use are kept.",
        "Annulé : les bâtonnets actuels sont gardés.",
    ),
    "small-d4": (
        "It is small for the camera: more throws will be taken again.",
        "Il est petit pour la caméra : plus de lancers seront à refaire.",
    ),
    "enrol-cancelled-yesno": (
        "Cancelled: the yes/no stick in use is kept.",
        "Annulé : le bâton oui/non actuel est gardé.",
    ),
    "enrol-cancelled-d4": (
        "Cancelled: the d4 in use is kept.",
        "Annulé : le dé actuel est gardé.",
    ),
    "no-camera": ("no camera", "pas de caméra"),
    "shut-down": ("Shut down", "Éteindre"),
    "confirm-shutdown": ("Shut down?", "Éteindre ?"),
    "confirm-lines": ("OK: shut down  back: cancel", "OK : éteindre  retour : annuler"),
    "goodbye": ("Safe to unplug", "Vous pouvez débrancher"),
    "goodbye-line": ("The game is saved.", "La partie est enregistrée."),
    "throw-again": ("Throw again", "Relancez"),
    "camera": ("Camera", "Caméra"),
    "camera-failed": (
        "Camera: {reason}. Enter throws by hand.",
        "Caméra : {reason}. Saisir les lancers à la main.",
    ),
    "camera-back": ("The camera reads throws again.", "La caméra lit de nouveau les lancers."),
    # why the camera reads no throws (the reason in "camera-failed")
    "camera-frame-size": (
        "its pictures do not match the calibration",
        "ses images ne vont pas avec la calibration",
    ),
    "camera-ended": ("no more pictures", "plus d'images"),
    "camera-uncalibrated": (
        "not calibrated yet ({problem}); it tries again",
        "pas encore calibrée ({problem}) ; elle réessaie",
    ),
    "camera-kit": ("it does not read this game's throws", "elle ne lit pas ces lancers"),
    "camera-no-work": ("this camera cannot do that", "cette caméra ne peut pas le faire"),
    # a throw the camera refused, by vision's reason (vision.observation.Reason)
    "refusal-on-edge": ("stick on its edge: throw again", "bâtonnet sur la tranche : relancez"),
    "refusal-cocked": ("a die is not flat: throw again", "un dé n'est pas à plat : relancez"),
    "refusal-overlap": ("pieces touch: throw again", "objets qui se touchent : relancez"),
    "refusal-off-tray": ("out of the tray: throw again", "hors du plateau : relancez"),
    "refusal-on-rim": ("leaning on the rim: throw again", "contre le bord : relancez"),
    "refusal-hand": ("a hand is over the tray", "une main au-dessus du plateau"),
    "refusal-missing": ("one is missing from the tray", "il en manque un sur le plateau"),
    "refusal-too-many": ("too many on the tray", "trop d'objets sur le plateau"),
    "refusal-unknown-object": ("something else is on the tray", "un objet inconnu sur le plateau"),
    "refusal-unclear": ("a face is unclear: throw again", "une face illisible : relancez"),
    "refusal-unknown-face": ("sticks not known: enrol them", "bâtonnets inconnus : à apprendre"),
    "refusal-unknown-numerals": ("d4 not known: enrol it", "d4 inconnu : à apprendre"),
    "refusal-empty": ("the tray is empty", "le plateau est vide"),
    "refusal-unlike-tray": ("tray changed: calibrate again", "plateau changé : recalibrez"),
    "refusal-blurred": ("picture blurred: focus camera", "image floue : réglez la caméra"),
    "problem": ("Problem", "Problème"),
    "ok-continue": ("OK: continue", "OK : continuer"),
    "nothing-to-undo": ("Nothing to undo.", "Rien à annuler."),
    "undone": ("Undone: {action}", "Annulé : {action}"),
    # setting up a new game
    "starts": ("First: seat {seat}", "Commence : place {seat}"),
    "throws-first": ("First to throw: seat {seat}", "Lance en premier : place {seat}"),
    "seat": ("Seat {number}: {who}", "Place {number} : {who}"),
    "person": ("a person", "une personne"),
    "sphinx-level": ("Sphinx, {level}", "Sphinx, {level}"),
    "level-easy": ("easy", "facile"),
    "level-normal": ("normal", "normal"),
    "level-strong": ("strong", "fort"),
    "option-players": ("Players: {value}", "Joueurs : {value}"),
    "option-length": ("Board: {value} squares", "Plateau : {value} cases"),
    "option-layout": ("Board layout: {value}", "Plateau : tracé {value}"),
    "start-game": ("Start the game", "Commencer la partie"),
    # the Sphinx
    "sphinx": ("Sphinx", "Sphinx"),
    "sphinx-thinks": ("The Sphinx is thinking...", "Le Sphinx réfléchit..."),
    "sphinx-plays": ("Sphinx plays {move}:", "Le Sphinx joue {move} :"),
    "sphinx-move-it": ("move it for me, then OK", "déplacez-le pour moi, puis OK"),
    "sphinx-passes": ("The Sphinx cannot move: OK", "Le Sphinx ne peut pas jouer : OK"),
    "sphinx-instead": (
        "Sphinx plays {move} instead of throwing",
        "Le Sphinx joue {move} sans lancer",
    ),
    "throw-for-sphinx": ("Throw for the Sphinx", "Lancez pour le Sphinx"),
    "sphinx-option": ("Throw for the Sphinx: {option}", "Lancez pour le Sphinx : {option}"),
    "sphinx-refuses-end": (
        "The Sphinx does not agree to end the game.",
        "Le Sphinx refuse d'arrêter la partie.",
    ),
    "hints-title": ("What would I play?", "Que jouerais-je ?"),
    "hint-line": ("{rank}. {move}  {value}", "{rank}. {move}  {value}"),
    "hints-none": ("No move to compare.", "Aucun coup à comparer."),
    # editing the position
    "edit-position": ("Edit the position", "Modifier la position"),
    "edit-square": ("Edit: square {square}", "Modifier : case {square}"),
    "edit-help": ("hold OK: play from here", "maintenir OK : jouer d'ici"),
    "edit-invalid": ("(not a position yet)", "(pas encore une position)"),
    # throw statistics
    "throw-stats": ("Throw statistics", "Statistiques des lancers"),
    "stats-title": ("Throws {game}", "Lancers {game}"),
    "stats-sticks-only": (
        "Statistics cover sticks and dice only.",
        "Les statistiques portent sur les bâtonnets et les dés.",
    ),
    "stats-dice": ("{count} throws, {dice} dice", "{count} lancers, {dice} dés"),
    "stats-stick": ("stick yes {rate} ({low}-{high})", "bâton oui {rate} ({low}-{high})"),
    "stats-stick-fair": ("stick fair", "bâton équit."),
    "stats-stick-die": ("stick/die", "bâton/dé"),
    "stats-faces-head": ("face fair seen", "face équit. vus"),
    "stats-none": (
        "No throw logged yet: throws read or entered are counted.",
        "Aucun lancer noté : les lancers lus ou saisis sont comptés.",
    ),
    "stats-throws": ("{count} throws logged", "{count} lancers notés"),
    "stats-rate": ("marked up {rate} ({low}-{high})", "marqué dessus {rate} ({low}-{high})"),
    "stats-fair": ("fair", "équitable"),
    "stats-independent": ("indep.", "indép."),
    "stats-p": ("{test}: p={p}{flag}", "{test} : p={p}{flag}"),
    "stats-too-few": ("{test}: too few throws", "{test} : trop peu de lancers"),
    "stats-flag": ("! check the set or camera", "! vérifier le jeu ou la caméra"),
    "stats-ok": ("no flag (tests at {level})", "aucune alerte (seuil {level})"),
    "stats-odds-head": ("sc table set seen", "sc table jeu vus"),
}


def has(key: str) -> bool:
    return key in _TEXTS


def text(key: str, lang: str, **values: object) -> str:
    """The device's text ``key`` in ``lang`` (English if the language is unknown)."""
    english, french = _TEXTS[key]
    template = french if lang == "fr" else english
    return template.format(**values)
