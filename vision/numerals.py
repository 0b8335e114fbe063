"""Reading a top-read tetrahedral die (d4): the value printed near the top point.

Each face of a d4 carries three numerals, one near each corner, its top towards that
corner; a corner's value is printed on the three faces around it. Seen from above, a d4
lying on a face shows three faces (two when perspective hides one): the value thrown, the
top point's, appears once per visible face, and each base corner's value on the one or two
visible faces around it. The three base values are the four values less the top one.

Each visible face is turned back into an upright equilateral triangle (``vision.tetra``),
so every numeral is found at a known place, upright once its corner is put on top. The
numerals are compared with glyphs (pictures of upright numerals: ``Profile.glyphs``) and
the die is read only when the top numerals and the base numerals tell the same story: the
top numerals say V and the base corners hold three different values other than V.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from itertools import permutations

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.hand import Hand, hand_of
from vision.tetra import CANONICAL_EDGE, Tetra, canonical_triangle, rectified_patch
from vision.tray import Image

GLYPH_SHAPE = (18, 14)  # pixels of a glyph: rows, columns
HIGH_PASS = 1.5  # pixels: what varies slower than this is the face's shading, not ink
PATCH_SIZE = 24  # a numeral's patch: the glyph may sit 2 pixels off its expected place
NUMERAL_AT = 0.47  # a numeral's centre, from its corner towards the face's centre
NUMERAL_SPAN = 0.42 * CANONICAL_EDGE  # the canonical square a patch shows
MIN_FACE_SHARE = 0.12  # faces seen more edge-on than this (of the base's area) are not read
CAMERA_BLUR = 1.0  # picture pixels: the lens and the demosaicing blur this much
INSIDE_PX = 3.5  # a patch keeps only what lies this far inside its face (canonical px)
VALUES = (1, 2, 3, 4)
# Reading: correlation of a numeral with its best glyph, and margins over other readings.
MAX_BLUR = 3.5  # pixels: a numeral blurred more (a face seen very aslant) tells nothing
# The top numerals must look like numerals: correct readings score 0.52 or more on the dev
# set (0.69 on generated dice), where the edges of a blank face score about 0.37 and a die
# whose numerals match no glyph (dimmed light) 0.47.
MIN_APEX_SCORE = 0.5
# Mean correlation of the top numerals: best value over the next. Top numerals that said a
# wrong value by this much or more (up to 0.031) came with a whole numbering under 0.05 clear
# (0.032 at most), over the dev set, its drift rows and generated dice; numberings 0.05
# clear with a wrong top had top numerals preferring another value (by 0.023 or more).
MIN_APEX_MARGIN = 0.02
MIN_STORY_MARGIN = 0.05  # summed correlations: best numbering over the best with another top
BASE_VETO_MARGIN = 0.10  # a base corner reading as the top value by this much: refused
BASE_DEFICIT = 0.10  # the base numerals' best numbering over their best with the top value
# Top numerals that hesitate (a 2 and a 3 blurred alike): the whole numbering must be this
# clear, three times the widest margin of a wrong best numbering seen on the development
# set (0.034), and the top numerals must score the value within this of their best.
MIN_STORY_MARGIN_ALONE = 0.10
APEX_SLACK = 0.05
# Top numerals that barely look like numerals (a die in dim light, a picture compressed
# hard) leave the reading to the whole numbering, which must then be as clear as for a
# hesitant top. Below this score, correct readings of the dev set, as shot and compressed
# again (JPEG quality 50 and 30), and of generated dice had margins of 0.10 or more; a d4
# thrown 3 read as 1 at JPEG quality 30 had 0.07 (its top numerals scored 0.51).
FAINT_APEX_SCORE = 0.6
# A top numeral seen on one face only has no other to agree with it, and must look like a
# numeral more than a faint one does: a patch a few pixels off (a die seen aslant, one face
# filling most of the view, its fit a little large, or its top point misplaced by a camera
# nearer the felt than calibration was told) may look like another numeral at such scores,
# and nothing else speaks for the top. Read wrong so: generated seed 11 compressed again
# at JPEG quality 40, scene 256 (one faint top numeral at 0.55 read 1 for a 2, a base
# corner unseen); dev 0078 resampled by 0.5 px (0.611); generated d4s drawn from 260 mm and
# read as from 380, four from one top numeral at 0.60-0.651, each a base corner unseen.
# Of the 806 d4s read from one top numeral over the dev set, 17 copies of it and 10
# generated sets of learned fonts (2026-12-06), 7 read right scored under this (0.608-0.695):
# 6 in copies of the dev set (0078 in four), 1 generated; the dev set's own 0.72 or more.
LONE_TOP_SCORE = 0.7
# A small d4's numerals span a few pixels (about a fifth of its edge): on dice of 16-25 mm
# (generated seeds 1000-1719 and 2000-2599), 6 of 1,320 throws read wrong, five of them from
# one face's three numerals (a top and a base corner swapped, the numbering 0.054-0.088 clear)
# and one against its top numerals' own preference (0.128 clear); in a font never learned
# (generated "light", 16-22 mm, seed 9112), two more: one face 0.102 clear, and hesitant top
# numerals overruled by a numbering 0.140 clear. A die whose edge spans fewer pixels than
# this must have top numerals that say its value clearly (``min_apex_margin``), and a whole
# numbering this clear. (Seen on two or three faces, such dice were read with 0.05 until
# pictures a little softer than the generator's showed them wrong: with the frames blurred
# by 0.8-1 px, or noise of 6 grey levels, 12 of 3,189 generated d4s of 16-25 mm were read
# wrong from two faces, numberings 0.053-0.113 clear, top numerals agreeing 0.021-0.102;
# at 0.12 none is, for 5.7 % of the right readings of 5,443 generated d4s of 16-30 mm.)
SMALL_DIE_EDGE = 58.0  # pixels of the picture read (about 23.5 mm at the working scale)
SMALL_DIE_MARGIN = 0.12
# Each of a small die's two rules was set on its own; a die that barely clears both is read
# on two margins at once. Under shadows that reach the dice (round 41), 1 of the 1,206
# small dice read in 3,220 generated throws (seeds 1000-1719, 2000-2599, 4000-4499,
# 5000-5499, 7000-7449, 8000-8449) was wrong so: seed 2074, thrown 1, read 3 by a
# numbering 0.122 clear, its top numerals 0.027 ahead. Under this margin the top numerals
# must lead by this much: 6 of the 1,205 right readings lost, and 2 of 523 in 1,200 throws
# drawn after the choice (seeds 10000-10599, 11000-11599; none of them read wrong). One
# rule: ``ReadingRules`` holds its margin, which at 0 leaves the rule out.
SMALL_DIE_SURE_MARGIN = 0.13
SMALL_DIE_SURE_LEAD = 0.03
# A die whose numerals fit a numbering of the other hand this much better than any of the
# hand in play is not the die in play: on the dev set and 170 generated throws of one hand,
# the other hand fitted better by 0.049 at most (0.085 on a die refused anyway); with the
# wrong hand assumed, by up to 0.27 (about half the throws by 0.10 or more).
OTHER_HAND_MARGIN = 0.10

Patch = NDArray[np.float32]


@dataclass(frozen=True, slots=True)
class ReadingRules:
    """What a d4's numerals must clear to be read (see :func:`judged`): the constants
    above, gathered so that a measurement can ask what each rule holds back
    (``benchmarks/d4_margins.py``)."""

    min_apex_score: float = MIN_APEX_SCORE
    min_apex_margin: float = MIN_APEX_MARGIN
    min_story_margin: float = MIN_STORY_MARGIN
    base_veto_margin: float = BASE_VETO_MARGIN
    base_deficit: float = BASE_DEFICIT
    min_story_margin_alone: float = MIN_STORY_MARGIN_ALONE
    apex_slack: float = APEX_SLACK
    faint_apex_score: float = FAINT_APEX_SCORE
    lone_top_score: float = LONE_TOP_SCORE
    small_die_edge: float = SMALL_DIE_EDGE
    small_die_margin: float = SMALL_DIE_MARGIN
    small_die_sure_margin: float = SMALL_DIE_SURE_MARGIN


RULES = ReadingRules()


@dataclass(frozen=True, slots=True, eq=False)
class Glyph:
    """An upright numeral as it looks on one set's d4, learned at enrolment."""

    value: int
    look: str
    patch: Patch  # GLYPH_SHAPE, high-passed, zero mean, unit norm

    def __eq__(self, other: object) -> bool:  # the patch is an array: compared by its values
        if not isinstance(other, Glyph):
            return NotImplemented
        same = self.value == other.value and self.look == other.look
        return same and bool(np.array_equal(self.patch, other.patch))

    def __hash__(self) -> int:
        return hash((self.value, self.look, self.patch.tobytes()))

    def as_dict(self) -> dict[str, object]:
        quantised = np.round(self.patch.ravel() * 1000).astype(int).tolist()
        return {"value": self.value, "look": self.look, "patch": quantised}

    @classmethod
    def from_dict(cls, record: dict[str, object]) -> Glyph:
        values = np.asarray(record["patch"], np.float32) / 1000
        if values.size != GLYPH_SHAPE[0] * GLYPH_SHAPE[1]:
            raise ValueError("a d4 glyph of another size: enrol the d4 again")
        patch = normalised(np.asarray(values.reshape(GLYPH_SHAPE), np.float32))
        return cls(int(str(record["value"])), str(record["look"]), patch)


@dataclass(frozen=True, slots=True)
class D4Reading:
    value: int | None
    confidence: float
    detail: str = ""
    hand: Hand | None = None  # the hand its numerals tell by themselves, when they do
    with_hand: bool = False  # read only with the hand of the d4 in play
    other_hand: bool = False  # unread, and fits the other hand far better than the one in play
    # How well its numerals fit the glyphs: the best numbering's mean correlation per
    # numeral read (the top's and each base corner's); see vision.font.
    familiarity: float | None = None


@dataclass(frozen=True)
class Numeral:
    """One numeral cut out upright, as ink contrast (the ink positive), and how blurred
    it is (covariance in patch pixels): squeezed faces blur along their squeeze."""

    patch: Patch
    blur: NDArray[np.float64]

    @property
    def sharpness(self) -> float:
        """The widest blur's standard deviation, patch pixels."""
        return float(np.sqrt(np.linalg.eigvalsh(self.blur).max()))


@dataclass
class DieNumerals:
    """The numerals of one d4, upright: those at the top point (one per visible face) and
    those at each base corner (one per visible face around it)."""

    apex: list[Numeral] = field(default_factory=list)
    base: list[list[Numeral]] = field(default_factory=lambda: [[], [], []])
    edge: float = float("inf")  # the die's edge, picture pixels: its numerals a fifth of it

    @property
    def count(self) -> int:
        return len(self.apex) + sum(len(corner) for corner in self.base)

    @property
    def sharp_apex(self) -> int:
        """How many top numerals are sharp enough to tell values apart."""
        return sum(numeral.sharpness <= MAX_BLUR for numeral in self.apex)


def normalised(patch: Patch) -> Patch:
    centred = patch - patch.mean()
    norm = float(np.linalg.norm(centred))
    return np.asarray(centred / norm if norm > 0 else centred, np.float32)


def _inside_mask() -> NDArray[np.bool_]:
    """Which pixels of a top-corner patch lie inside the face."""
    canonical = canonical_triangle().astype(np.float64)
    top, left, right = canonical
    centre = canonical.mean(axis=0)
    middle = top + NUMERAL_AT * (centre - top)
    step = NUMERAL_SPAN / PATCH_SIZE
    coords = (np.arange(PATCH_SIZE) + 0.5) * step - NUMERAL_SPAN / 2
    xs, ys = np.meshgrid(middle[0] + coords, middle[1] + coords)
    inside = np.ones(xs.shape, bool)
    for a, b in ((top, left), (left, right), (right, top)):
        edge = b - a
        normal = np.array([edge[1], -edge[0]]) / np.hypot(*edge)
        if normal @ (centre - a) < 0:
            normal = -normal
        inside &= (xs - a[0]) * normal[0] + (ys - a[1]) * normal[1] >= INSIDE_PX
    return inside


_INSIDE = _inside_mask()


def die_numerals(frame: Image, tetra: Tetra) -> DieNumerals:
    """Every numeral of the visible faces, upright, as contrast with its face (the ink
    positive, whether it is lighter or darker than the die)."""
    x0, y0, x1, y1 = tetra.bounds(4)
    grey = cv2.cvtColor(frame[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY).astype(np.float32)
    shift = np.array([x0, y0], np.float64)
    canonical = canonical_triangle().astype(np.float64)
    centre_top = canonical[0] + NUMERAL_AT * (canonical.mean(axis=0) - canonical[0])
    raw: list[tuple[int, Patch, NDArray[np.float64]]] = []  # (-1: top point, else base corner)
    for i, j in tetra.faces():
        if tetra.face_share((i, j)) < MIN_FACE_SHARE:
            continue
        corners = [(tetra.apex - shift, -1), (tetra.base[i] - shift, i), (tetra.base[j] - shift, j)]
        for turn in range(3):
            (top, where), (left, _), (right, _) = corners[turn:] + corners[:turn]
            patch, blur = rectified_patch(
                grey, (top, left, right), (centre_top[0], centre_top[1]), NUMERAL_SPAN, PATCH_SIZE
            )
            raw.append((where, patch, blur))
    numerals = DieNumerals(edge=tetra.edge)
    if not raw:
        return numerals
    insides = np.stack([patch[_INSIDE] for _, patch, _ in raw])
    low, middle, high = np.percentile(insides, (3, 50, 97), axis=1)
    ink = _ink_sign(low, middle, high)
    for (where, patch, blur), median in zip(raw, middle.tolist(), strict=True):
        contrast = np.where(_INSIDE, (patch - median) * ink, 0.0)
        upright = Numeral(np.asarray(np.clip(contrast, 0, None), np.float32), blur * CAMERA_BLUR**2)
        if where < 0:
            numerals.apex.append(upright)
        else:
            numerals.base[where].append(upright)
    return numerals


def _ink_sign(
    low: NDArray[np.float64], middle: NDArray[np.float64], high: NDArray[np.float64]
) -> float:
    """+1 when the numerals are lighter than the die, -1 when darker: the ink is the side
    of the faces' medians with the longer tails (each patch's 3rd, 50th and 97th
    percentiles)."""
    lighter = float((high - middle).sum())
    darker = float((middle - low).sum())
    return 1.0 if lighter >= darker else -1.0


def blur_kernel(blur: NDArray[np.float64]) -> NDArray[np.float32] | None:
    """A Gaussian kernel of covariance ``blur`` (pixels), None when too small to matter."""
    widest = float(np.linalg.eigvalsh(blur).max())
    if widest < 0.05:
        return None
    reach = int(min(GLYPH_SHAPE[1] // 2 - 1, np.ceil(3 * np.sqrt(widest))))
    offsets = np.arange(-reach, reach + 1, dtype=np.float64)
    xs, ys = np.meshgrid(offsets, offsets)
    inverse = np.linalg.inv(blur + 0.05 * np.eye(2))
    kernel = np.exp(
        -0.5 * (inverse[0, 0] * xs**2 + 2 * inverse[0, 1] * xs * ys + inverse[1, 1] * ys**2)
    )
    return np.asarray(kernel / kernel.sum(), np.float32)


def high_passed(patch: Patch) -> Patch:
    return np.asarray(patch - cv2.GaussianBlur(patch, (0, 0), HIGH_PASS), np.float32)


Templates = list[tuple[int, Patch]]  # high-passed glyphs with their values


def templates(glyphs: tuple[Glyph, ...]) -> Templates:
    return [(glyph.value, high_passed(glyph.patch)) for glyph in glyphs]


def glyph_scores(numeral: Numeral, prepared: Templates) -> dict[int, float]:
    """The best correlation of a numeral with each value's glyphs, blurred as the numeral
    is (blurring and high-passing commute: the glyphs are high-passed once), over small
    shifts."""
    best: dict[int, float] = {}
    if float(numeral.patch.std()) <= 1e-6:
        return dict.fromkeys(VALUES, 0.0)
    patch = high_passed(numeral.patch)
    kernel = blur_kernel(numeral.blur)
    for value, template in prepared:
        if kernel is not None:
            template = np.asarray(
                cv2.filter2D(template, -1, kernel, borderType=cv2.BORDER_CONSTANT), np.float32
            )
        match = cv2.matchTemplate(patch, template, cv2.TM_CCOEFF_NORMED)
        best[value] = max(float(match.max()), best.get(value, -1.0))
    return best


Scores = dict[int, float]


def _mean_scores(patches: list[Numeral], glyphs: Templates) -> Scores | None:
    """Per value, the mean correlation of the numerals of one corner that are sharp enough
    to tell values apart; None without any."""
    scores = [glyph_scores(patch, glyphs) for patch in patches if patch.sharpness <= MAX_BLUR]
    if not scores:
        return None
    return {v: float(np.mean([s.get(v, 0.0) for s in scores])) for v in VALUES}


def top_scores(numerals: DieNumerals, glyphs: tuple[Glyph, ...]) -> Scores | None:
    """Per value, how well the die's top numerals fit ``glyphs`` (None: none sharp enough)."""
    return _mean_scores(numerals.apex, templates(glyphs))


@dataclass(frozen=True, slots=True)
class Story:
    """One account of the die: the top value and the value of each base corner (in the
    order of ``Tetra.base``: clockwise seen from above)."""

    top: int
    corners: tuple[int, int, int]
    score: float

    @property
    def hand(self) -> Hand:
        return hand_of(self.top, self.corners)


def stories(numerals: DieNumerals, glyphs: tuple[Glyph, ...]) -> list[Story]:
    """Every numbering of the die, best first, scored by how well its numerals fit."""
    prepared = templates(glyphs)
    corners = [_mean_scores(patches, prepared) for patches in numerals.base]
    return _stories(_mean_scores(numerals.apex, prepared), corners)


def _stories(
    apex: Scores | None, corners: list[Scores | None], hand: Hand | None = None
) -> list[Story]:
    """The numberings (of ``hand`` alone, when given), best first."""
    told = []
    for order in permutations(VALUES):
        top, rest = order[0], order[1:]
        score = apex[top] if apex else 0.0
        score += sum(c[v] for c, v in zip(corners, rest, strict=True) if c is not None)
        told.append(Story(top, (rest[0], rest[1], rest[2]), score))
    kept = told if hand is None else [story for story in told if story.hand is hand]
    return sorted(kept, key=lambda story: -story.score)


def d4_templates(glyphs: tuple[Glyph, ...]) -> Templates:
    """The glyphs a reader compares numerals with, prepared once: those of the looks that
    know every value, high-passed; none when no look does (the d4 must be enrolled)."""
    return templates(complete_looks(glyphs))


def read_d4(frame: Image, tetra: Tetra, prepared: Templates, hand: Hand | None = None) -> D4Reading:
    """The value of the fitted die ``tetra``, from glyphs prepared by :func:`d4_templates`;
    ``hand``: the hand of the d4 in play, when its readings told it (see :func:`judged`)."""
    return _read_prepared(die_numerals(frame, tetra), prepared, hand)


def complete_looks(glyphs: tuple[Glyph, ...]) -> tuple[Glyph, ...]:
    """The glyphs of the looks that know all four values: a value with glyphs of more looks
    than the others would be favoured (each numeral counts its best glyph)."""
    looks = {glyph.look for glyph in glyphs}
    kept = {look for look in looks if {g.value for g in glyphs if g.look == look} == set(VALUES)}
    return tuple(glyph for glyph in glyphs if glyph.look in kept)


def read_numerals(numerals: DieNumerals, glyphs: tuple[Glyph, ...]) -> D4Reading:
    """The value thrown, when the top numerals and the base numerals agree on it clearly:

    - the numbering that fits all numerals best has V on top, clearly better than any
      numbering with another value on top;
    - the top numerals, alone, say V (mean correlation clearly best for V); or, when they
      hesitate between V and another value, the whole numbering is far clearer: the base
      corners then tell which of the two is printed at a base corner, so not on top;
    - no base corner reads clearly as V (V is printed at one corner only), and the base
      corners, alone, fit a numbering with V on top about as well as any numbering;
    - on a small die (``numerals.edge``), the top numerals say V clearly by themselves,
      the numbering is far clearer, and the two do not both barely clear their margins.
    """
    return _read_prepared(numerals, templates(glyphs))


def _read_prepared(
    numerals: DieNumerals, prepared: Templates, hand: Hand | None = None
) -> D4Reading:
    apex = _mean_scores(numerals.apex, prepared)
    if apex is None:
        return D4Reading(None, 0.0, "the d4's faces are seen too much edge on")
    corners = [_mean_scores(patches, prepared) for patches in numerals.base]
    return judged(apex, corners, top_numerals=numerals.sharp_apex, edge=numerals.edge, hand=hand)


def judged(
    apex: Scores,
    corners: list[Scores | None],
    rules: ReadingRules = RULES,
    *,
    top_numerals: int,
    edge: float = float("inf"),
    hand: Hand | None = None,
) -> D4Reading:
    """The reading of a die from its numerals' scores per value: the top numerals' (from
    ``top_numerals`` faces) and each base corner's (None: not seen sharply enough); ``edge``,
    the die's in picture pixels, tells a small die.

    A die these rules leave unread is weighed again, when the ``hand`` of the d4 in play is
    known (``vision.hand.HandInPlay``), against the numberings of that hand alone: their
    mirror images, which fit hesitant numerals about as well with another value on top,
    are not this die's. A die whose numerals fit the other hand far better is not the die
    in play (``other_hand``): the hand must be forgotten, as it would read that die wrong."""
    told = _stories(apex, corners)
    familiarity = told[0].score / (1 + sum(corner is not None for corner in corners))
    free = replace(
        _judged_numbering(apex, corners, told, rules, top_numerals, edge),
        hand=_told_hand(told),
        familiarity=familiarity,
    )
    if free.value is not None or hand is None:
        return free
    own = [story for story in told if story.hand is hand]
    if told[0].score - own[0].score >= OTHER_HAND_MARGIN:
        return replace(free, other_hand=True)
    if max(apex.values()) < rules.faint_apex_score or _lead(own)[1] < HAND_STORY_MARGIN:
        return free
    again = _judged_numbering(apex, corners, own, rules, top_numerals, edge, hand)
    if again.value is None:
        return free
    return replace(again, with_hand=True, familiarity=familiarity)


HAND_TOLD = 0.02  # a numbering's lead over the best of the other hand that tells its hand
# With half the numberings left out, a wrong best numbering of the hand in play leads by
# more than among all 24: on 3,275 generated d4s of 16-28 mm (three fonts) read with their
# hand, wrong best numberings led by up to 0.136 where the top numerals were not faint
# (0.173 where they were), and a die thrown 3 was read 1 at 0.125. Read with the hand, a
# die's numbering must lead by this much, and its top numerals must not be faint.
HAND_STORY_MARGIN = 0.2


def _told_hand(told: list[Story]) -> Hand | None:
    """The hand of the best numbering, when it fits clearly better than any of the other."""
    best = told[0]
    mirror = next(story for story in told if story.hand is not best.hand)
    return best.hand if best.score - mirror.score >= HAND_TOLD else None


def _judged_numbering(
    apex: Scores,
    corners: list[Scores | None],
    told: list[Story],
    rules: ReadingRules,
    top_numerals: int,
    edge: float,
    hand: Hand | None = None,
) -> D4Reading:
    """:func:`judged` with the numberings ``told`` (best first): every numbering, or those
    of ``hand``."""
    value, margin = _lead(told)
    if not _apex_agrees(apex, value, margin, rules):
        if _apex_clear(apex, rules):
            return D4Reading(None, 0.0, "the d4's top numerals and its whole numbering disagree")
        return D4Reading(None, 0.0, "the d4's top numerals are unclear")
    for corner in corners:
        ranked = sorted((corner or {}).items(), key=lambda item: -item[1])
        if (
            ranked
            and ranked[0][0] == value
            and ranked[0][1] - ranked[1][1] >= rules.base_veto_margin
        ):
            return D4Reading(None, 0.0, "a base corner of the d4 reads as its top value")
    base_told = _stories(None, corners, hand)
    with_value = next(story for story in base_told if story.top == value)
    if base_told[0].score - with_value.score > rules.base_deficit:
        return D4Reading(None, 0.0, "the d4's base numerals say another top value")
    if margin < rules.min_story_margin:
        return D4Reading(None, 0.0, "the d4's numerals are unclear")
    if apex[value] < rules.faint_apex_score and margin < rules.min_story_margin_alone:
        return D4Reading(None, 0.0, "the d4's top numerals are faint and its numbering unclear")
    if top_numerals < 2 and apex[value] < rules.lone_top_score:
        return D4Reading(None, 0.0, "the d4's top numeral is unclear and seen on one face only")
    if edge < rules.small_die_edge and not _small_die_clear(apex, value, margin, rules):
        return D4Reading(None, 0.0, "the d4 is small and its numerals unclear")
    return D4Reading(value, float(min(1.0, 4 * margin)))


def _small_die_clear(apex: Scores, value: int, story_margin: float, rules: ReadingRules) -> bool:
    """Whether a small die's numerals say ``value`` clearly enough: its top numerals say
    it clearly by themselves (no whole numbering overrules them), and the numbering is far
    clearer than a large die's must be (a top and a base corner swapped, or a 3 blurred
    into a 2, fit its numerals of a few pixels nearly as well), and one of the two clears
    its floor by more than a little."""
    lead = top_lead(apex, value)
    if lead < rules.min_apex_margin or story_margin < rules.small_die_margin:
        return False
    return story_margin >= rules.small_die_sure_margin or lead >= SMALL_DIE_SURE_LEAD


def best_numbering(apex: Scores | None, corners: list[Scores | None]) -> tuple[int, float]:
    """The top value of the numbering that fits the numerals best, and how much better it
    fits than the best numbering with another value on top."""
    return _lead(_stories(apex, corners))


def _lead(told: list[Story]) -> tuple[int, float]:
    """The best story's top value, and its lead over the best with another top."""
    runner_up = next(story for story in told if story.top != told[0].top)
    return told[0].top, told[0].score - runner_up.score


def top_lead(apex: Scores, value: int) -> float:
    """How much better the top numerals score ``value`` than any other value (negative:
    another scores better)."""
    return apex[value] - max(score for other, score in apex.items() if other != value)


def _apex_clear(apex: Scores, rules: ReadingRules) -> bool:
    """Whether the top numerals, alone, say one value clearly."""
    first, second = sorted(apex.values(), reverse=True)[:2]
    return first >= rules.min_apex_score and first - second >= rules.min_apex_margin


def _apex_agrees(apex: Scores, value: int, story_margin: float, rules: ReadingRules) -> bool:
    """Whether the top numerals say ``value``: clearly by themselves, or, when they say no
    value clearly, about as well as any other value while the whole numbering says it far
    more clearly. Top numerals saying another value clearly are never overruled: a d4
    thrown 3 whose fit lay 3 or 4 pixels off (generated, through a bent, blurred, noisy
    camera) had top numerals saying 3 by 0.035, and was read 1 by a numbering 0.114 clear
    that a hesitant base corner carried. Faint top numerals that hesitate must still rank
    ``value`` first: a d4 thrown 1, under noise of 6 grey levels (dev 0127), had faint top
    numerals ranking 1 first and 4 second, and a numbering 0.102 clear, carried by base
    corners of blank-edge scores, with 4 on top."""
    best = max(apex.values())
    if apex[value] < rules.min_apex_score:
        return False
    if top_lead(apex, value) >= rules.min_apex_margin:
        return True
    if _apex_clear(apex, rules):
        return False
    slack = rules.apex_slack if best >= rules.faint_apex_score else 0.0
    return story_margin >= rules.min_story_margin_alone and apex[value] >= best - slack


LEARN_SHARPNESS = 1.8  # numerals blurred more than this (patch pixels) teach nothing
LEARN_SHARPNESS_AT_WORST = 2.5  # ... unless a value has no sharper example
LEARN_ROUNDS = 3


def learn_glyphs(dice: list[tuple[int, DieNumerals]], look: str) -> tuple[Glyph, ...]:
    """Glyphs from d4s of known values: the top numerals first, then the base corners' once
    the glyphs tell which base corner holds which of the other values."""
    examples = [(value, n) for value, numerals in dice for n in numerals.apex]
    glyphs = _glyph_means(examples, look)
    if {glyph.value for glyph in glyphs} != set(VALUES):
        return glyphs
    for value, numerals in dice:
        corners = _base_values(numerals, value, glyphs)
        if corners is not None:
            examples += [
                (v, n) for v, patches in zip(corners, numerals.base, strict=True) for n in patches
            ]
    return _glyph_means(examples, look)


def _base_values(
    numerals: DieNumerals, top: int, glyphs: tuple[Glyph, ...]
) -> tuple[int, int, int] | None:
    """The base corners' values of a die whose top value is known, when clear."""
    told = [story for story in stories(numerals, glyphs) if story.top == top]
    if len(told) < 2 or told[0].score - told[1].score < LEARN_BASE_MARGIN:
        return None
    return told[0].corners


LEARN_BASE_MARGIN = 0.15


def _glyph_means(examples: list[tuple[int, Numeral]], look: str) -> tuple[Glyph, ...]:
    """Per value, the mean of its sharp numerals, each moved onto the mean first."""
    glyphs = []
    rows, columns = GLYPH_SHAPE
    top, left = (PATCH_SIZE - rows) // 2, (PATCH_SIZE - columns) // 2
    for value in VALUES:
        shown = [n for v, n in examples if v == value and float(n.patch.std()) > 1e-6]
        sharp = [n for n in shown if n.sharpness <= LEARN_SHARPNESS]
        if not sharp:  # rather a little blurred than no glyph for this value
            sharp = [n for n in shown if n.sharpness <= LEARN_SHARPNESS_AT_WORST]
        patches = [high_passed(n.patch) for n in sharp]
        if not patches:
            continue
        inner = (slice(top, top + rows), slice(left, left + columns))
        mean = normalised(np.mean([normalised(p[inner]) for p in patches], axis=0))
        for _ in range(LEARN_ROUNDS):
            moved = []
            for patch in patches:
                match = cv2.matchTemplate(patch, mean, cv2.TM_CCOEFF_NORMED)
                y, x = np.unravel_index(int(match.argmax()), match.shape)
                moved.append(normalised(patch[y : y + rows, x : x + columns]))
            mean = normalised(np.asarray(np.mean(moved, axis=0), np.float32))
        glyphs.append(Glyph(value, look, mean))
    return tuple(glyphs)
