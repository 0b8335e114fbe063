"""From one frame to an observation: find the implements, read their faces, apply the kit.

Every doubt becomes a refusal with its reason: a wrong reading costs the players the game,
a refusal costs them one more throw.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from itertools import combinations

import numpy as np

from vision.align import Motion, follows
from vision.binary_d4 import BinaryReading, read_binary_d4
from vision.features import face_features, face_width_mm, stick_strip
from vision.focus import BLURRED_PX, FocusCheck
from vision.font import FontInPlay
from vision.hand import HandInPlay
from vision.kit import Kit
from vision.memory import keep_freed_memory
from vision.numerals import D4Reading, d4_templates, read_d4
from vision.observation import (
    MARKED,
    NO,
    PLAIN,
    YES,
    Box,
    Implement,
    Kind,
    Observation,
    Reason,
    Refusal,
)
from vision.pips import count_pips, die_side
from vision.profile import Profile
from vision.segment import Blob, Foreground, Segmenter
from vision.separate import separated
from vision.shapes import D4_SIDE, Shape, ShapeCall, classify, lies_whole
from vision.tetra import Tetra, fit_tetras, numeral_view
from vision.tray import Image, Tray

ON_RIM_MM = 10.0  # reaching this far past the floor's edge: leaning on the rim
OFF_TRAY_MM = 35.0  # this far: on top of the rim or outside
# Sticks read as one face in one throw differ at most this much in colour (Lab's a and b):
# on the dev set and four harder copies of it, 192 such pairs differed by 4.3 at most
# (lightness and a pale face's hue vary far more, with the light across the tray).
SAME_FACE_COLOUR = 12.0
_SHAPE_REASONS = {
    Shape.ON_EDGE: Reason.ON_EDGE,
    Shape.COCKED: Reason.COCKED,
    Shape.AMBIGUOUS: Reason.UNCLEAR,
    Shape.MERGED: Reason.OVERLAP,
    Shape.HAND: Reason.HAND,
    Shape.UNKNOWN: Reason.UNKNOWN_OBJECT,
}
_YESNO_FACES = {MARKED: YES, PLAIN: NO}
# A fitted d4 to the picture its numerals are read from, and the die there (numeral_view).
NumeralView = Callable[[Tetra], tuple[Image, Tetra]]
# Faces of one colour narrower than this show a side, not a face: sticks are 16 x 6 mm
# across, the yes/no stick 20 x 7 mm; halfway, less a little for rounded edges.
_NARROWEST_FACE_MM = {Kind.STICK: 10.5, Kind.YESNO: 12.5}


@dataclass(frozen=True)
class _D4:
    """A die to read as a d4 once fitted; ``otherwise``, what it is if that fails (a die
    whose outline looked cocked); ``square``: its outline looked like a d6's."""

    blob: Blob
    otherwise: Refusal | None = None
    square: bool = False


@dataclass(frozen=True)
class _Stick:
    """A stick read, the sets (looks) whose face it resembles, and its face's colour (CIE
    Lab's a and b)."""

    implement: Implement
    looks: frozenset[str]
    colour: tuple[float, float]


class Reader:
    """Reads frames of one calibrated tray with one profile."""

    def __init__(
        self,
        tray: Tray,
        profile: Profile,
        *,
        detail_numerals: bool = False,
        learn_hand: bool = False,
        d4_font_of_pictures: FontInPlay | None = None,
    ) -> None:
        """``detail_numerals``: read a d4's numerals from the camera's own picture where it
        has more pixels than the working one (``vision.tetra.numeral_view``). Off unless
        asked for: the reading rules were measured at the working scale, and numerals of a
        font the glyphs were not learned from read wrong more often from more pixels (see
        docs/vision.md, "More pixels for the d4").

        ``learn_hand``: the frames are the throws of one game, in order; the hand of the d4
        in play, once its readings showed it, reads numerals that alone leave a throw
        unread (``vision.hand``), and a d4 whose numerals its readings show to be of a font
        the glyphs do not know is refused, to be enrolled (``vision.font``). Off for
        pictures taken apart from one another.

        ``d4_font_of_pictures``: pictures taken apart but of one set of implements (a
        labelled folder); every d4 the reading rules read tells this font, which the caller
        judges once all are read (``vision.font.refused_for_font``): nothing is refused
        for it here."""
        keep_freed_memory()  # frame after frame, the same large arrays: see vision.memory
        self.detail_numerals = detail_numerals
        self.calibrated = tray
        self.profile = profile
        self._compare_with(tray)
        self._d4_glyphs = d4_templates(profile.glyphs)
        self.d4_in_play = HandInPlay() if learn_hand else None
        self.d4_font = FontInPlay() if learn_hand else None
        self.d4_font_of_pictures = d4_font_of_pictures
        self._knock: Motion | None = None  # the calibrated tray to self.tray

    def read(self, picture: Image, kit: Kit | None = None) -> Observation:
        foreground = self.segmenter.foreground(picture, turn_back=False)
        if foreground.to_follow and foreground.motion is not None:
            self._follow(foreground.motion)
            foreground = self.segmenter.foreground(picture)
        frame = foreground.frame  # moved back onto the empty tray, relit as it was
        if _unlike_tray(foreground, self.tray):
            return Observation(refusals=(Refusal(Reason.UNLIKE_TRAY),))
        blurred = self._blurred(picture, foreground)
        if blurred is not None:
            return Observation(refusals=(blurred,))
        blobs = self._blobs(frame, foreground)
        outcomes, mixed = _of_one_set(
            [self._read_blob(frame, blob, call, kit) for blob, call in blobs]
        )
        numerals_at: NumeralView = partial(_on_frame, frame)
        if self.detail_numerals:
            numerals_at = partial(numeral_view, picture, foreground, self.tray)
        read = self._read_d4s(frame, outcomes, _reads_tips(kit), numerals_at)
        implements = [outcome for outcome in read if isinstance(outcome, Implement)]
        refusals = [outcome for outcome in read if isinstance(outcome, Refusal)]
        if kit is not None:
            refusals.extend(_kit_refusals(implements, refusals, kit))
        refusals.extend(mixed)
        if not blobs:
            refusals.append(Refusal(Reason.EMPTY))
        # Read on the frame moved and turned back, at the working scale and rectified; told
        # where the implements lie in the picture as it was taken.
        observation = Observation(tuple(implements), tuple(refusals))
        tray = self.tray
        if foreground.motion is None and tray.scale == 1.0 and tray.keystone is None:
            return observation
        return observation.mapped(lambda box: tray.in_picture(foreground.placed(box)))

    def seen_from(self, camera_height_mm: float) -> None:
        """Read from now on as from a camera this high above the felt, the height the
        throws judged (``vision.height.HeightInPlay``): the tray as it lies is kept."""
        self.calibrated = replace(
            self.calibrated, camera_height_mm=camera_height_mm, height_judged=True
        )
        self._compare_with(
            replace(self.tray, camera_height_mm=camera_height_mm, height_judged=True)
        )

    def _blurred(self, picture: Image, foreground: Foreground) -> Refusal | None:
        """A refusal when something lies on the tray and the frame is blurred beyond
        :data:`~vision.focus.BLURRED_PX` more than the empty tray: numerals and pips are
        then read worse than any margin was set for (an empty tray is told as such). A
        tilted camera's frame, rectified fast and softer than its empty tray, is compared
        by the parts drawn as the empty tray was, where it lies as calibrated."""
        if not foreground.blobs:
            return None
        parts = None
        if self.tray.keystone is not None and foreground.motion is None:
            parts = partial(self.tray.sharp_parts, picture)
        extra = self.focus.extra_blur(foreground.frame, foreground.mask, sharp_parts=parts)
        if extra is None or extra < BLURRED_PX:
            return None
        detail = f"the tray's edges are blurred by {extra:.1f} px more than when calibrated"
        return Refusal(Reason.BLURRED, detail=detail)

    def _follow(self, motion: Motion) -> None:
        """Read from now on against the tray as it lies after a knock that turned it,
        brought the camera nearer or moved it by a fraction of a pixel (``motion``: from
        the tray read against so far): moving the empty tray once per knock costs less
        than turning every frame back, and blurs no frame. A tray knocked back where it
        was calibrated, to whole pixels, is the calibrated one."""
        knock = motion if self._knock is None else _after(self._knock, motion)
        self._knock = knock if follows(knock) else None
        tray = self.calibrated if self._knock is None else self.calibrated.knocked(self._knock)
        self._compare_with(tray)

    def _compare_with(self, tray: Tray) -> None:
        """Read frames against ``tray``: the tray as the camera sees it now (see _follow)."""
        self.tray = tray
        self.segmenter = Segmenter(tray)
        self.focus = FocusCheck(tray.empty, tray.floor, tray.px_per_mm)

    def _blobs(self, frame: Image, foreground: Foreground) -> list[tuple[Blob, ShapeCall]]:
        """The foreground's blobs and what their shapes say, with sticks joined only by a
        shadow parted."""
        blobs: list[tuple[Blob, ShapeCall]] = []
        for blob in foreground.blobs:
            call = classify(blob)
            merged = call.shape is Shape.MERGED and not blob.touches_border
            parts = separated(frame, blob, self.segmenter) if merged else None
            blobs.extend([(part, classify(part)) for part in parts] if parts else [(blob, call)])
        return blobs

    def _read_blob(
        self, frame: Image, blob: Blob, call: ShapeCall, kit: Kit | None
    ) -> Implement | Refusal | _D4 | _Stick:
        binary = _reads_tips(kit)
        seen_as, call = call, _as_kit_die(blob, call, kit)
        if call.shape is Shape.HAND:
            return Refusal(Reason.HAND, blob.box)
        if blob.touches_border or blob.outside_mm >= ON_RIM_MM:
            blob, call = self._on_floor(blob, call)
        if blob.touches_border or blob.outside_mm >= OFF_TRAY_MM:
            return Refusal(Reason.OFF_TRAY, blob.box)
        if blob.outside_mm >= ON_RIM_MM:
            return Refusal(Reason.ON_RIM, blob.box)
        if call.shape is not Shape.FLAT or call.kind is None:
            refusal = Refusal(_SHAPE_REASONS[call.shape], blob.box, call.shape.value)
            d4_sized = D4_SIDE[0] <= blob.length_mm <= D4_SIDE[1]
            partial = call.shape in (Shape.COCKED, Shape.UNKNOWN)
            if partial and d4_sized and (kit is None or kit.d4):
                # A dark face lost to the shadow rule, or a face of the felt's own colour,
                # leaves a d4's outline no triangle, or too narrow for any die; its
                # numerals on three fitted faces, cross-checked, show it lies flat, as a
                # binary d4's four tips do, or three when its fit is its set's size. (In
                # a kit without d4s, it is a cocked stick or die, or no implement.)
                die = _D4(blob, refusal, square=seen_as != call)
                return self._d4(frame, die, binary)
            return refusal
        if call.kind is Kind.D6:
            return self._read_d6(frame, blob)
        if call.kind is Kind.D4:
            return self._d4(frame, _D4(blob), binary)
        return self._read_stick(frame, blob, call.kind)

    def _not_read(self, frame: Image, die: _D4, refusal: Refusal) -> Refusal:
        """Why a die that was not read as a d4 is refused: ``refusal``, or what its outline
        said; but a square die whose pips read is a d6 thrown by mistake in a kit without
        d6s, named as such rather than as a d4 resting cocked (which a throw again would
        not mend). The pips are counted only then: a d4 that lost a corner and is read
        costs nothing more."""
        if die.square and isinstance(self._read_d6(frame, die.blob), Implement):
            return Refusal(Reason.UNKNOWN_OBJECT, die.blob.box, "a six-sided die: not of this kit")
        return die.otherwise or refusal

    def _on_floor(self, blob: Blob, call: ShapeCall) -> tuple[Blob, ShapeCall]:
        """A stick lying whole on the floor against a wall, without its light or shade on
        the wall, which the blob took in; any other blob as it is.

        Its whole length on the floor, the stick is not on the rim nor out of the tray, and
        what lies beyond the floor's edge is not the stick; another implement there would
        be missing from the kit's count.
        """
        on_floor = self.segmenter.floor_part(blob)
        if on_floor is None or on_floor.touches_border or not lies_whole(on_floor):
            return blob, call
        return on_floor, classify(on_floor)

    def _read_stick(self, frame: Image, blob: Blob, kind: Kind) -> _Stick | Refusal:
        width = face_width_mm(frame, blob, self.tray.px_per_mm)
        if width < _NARROWEST_FACE_MM[kind]:
            return Refusal(Reason.ON_EDGE, blob.box, "only a narrow side shows")
        strip = stick_strip(frame, blob, self.tray.px_per_mm)
        features = face_features(strip)
        reading = self.profile.read_face(kind, features)
        if reading.face is None:
            reason = Reason.UNCLEAR if reading.known else Reason.UNKNOWN_FACE
            return Refusal(reason, blob.box, f"{kind.value} face")
        face = _YESNO_FACES[reading.face] if kind is Kind.YESNO else reading.face
        implement = Implement(kind, blob.box, reading.confidence, face=face)
        return _Stick(implement, reading.looks, features.colour)

    def _d4(self, frame: Image, die: _D4, binary: bool) -> _D4 | Refusal:
        """A d4 to fit with the others, or why it cannot be read."""
        if binary and die.blob.pale:
            # Its bare tips are of the floor's colour, and an outline that only the felt's
            # texture tells places its tips too loosely: 5 of 1,239 such binary d4s
            # (generated seed 2813) read wrong when they were read.
            detail = "a d4 of the felt's colour: its painted tips cannot be read"
            return Refusal(Reason.UNCLEAR, die.blob.box, detail)
        if not binary and not self._d4_glyphs:
            # Said of every blob fitted as a d4, its outline a triangle or not (a die that
            # loses its tips to the shadow looks cocked on every throw; so may an object
            # of a d4's size): without glyphs no d4 reads, and throwing again never mends
            # that. A d6 in a kit without d6s is still named as one.
            detail = "the profile lacks the d4's numerals: enrol the d4"
            enrol = Refusal(Reason.UNCLEAR, die.blob.box, detail)
            return self._not_read(frame, replace(die, otherwise=None), enrol)
        return die

    def _read_d4s(
        self,
        frame: Image,
        outcomes: list[Implement | Refusal | _D4],
        binary: bool,
        numerals_at: NumeralView,
    ) -> list[Implement | Refusal]:
        """The outcomes with every d4 read: all fitted at once, as a throw of four binary
        d4s spends most of its reading fitting them."""
        dice = [outcome for outcome in outcomes if isinstance(outcome, _D4)]
        blobs = [die.blob for die in dice]
        fitted = iter(fit_tetras(frame, blobs, self.tray, painted=binary, alike=binary))
        return [
            self._read_d4(frame, outcome, next(fitted), binary, numerals_at)
            if isinstance(outcome, _D4)
            else outcome
            for outcome in outcomes
        ]

    def _read_d4(
        self, frame: Image, die: _D4, tetra: Tetra, binary: bool, numerals_at: NumeralView
    ) -> Implement | Refusal:
        read = self._read_fitted_d4(frame, die, tetra, binary, numerals_at)
        if isinstance(read, Implement) or read.reason is Reason.UNKNOWN_NUMERALS:
            return read  # what to mend is the glyphs, whatever the outline said: enrol
        return self._not_read(frame, die, read)

    def _read_fitted_d4(
        self, frame: Image, die: _D4, tetra: Tetra, binary: bool, numerals_at: NumeralView
    ) -> Implement | Refusal:
        blob = die.blob
        if not D4_SIDE[0] <= tetra.edge / self.tray.px_per_mm <= D4_SIDE[1]:
            # No d4 of this size: the fit followed something else (a shadow, a neighbour).
            return Refusal(Reason.UNCLEAR, blob.box, "the d4's faces were not found")
        if binary:
            tips = self._read_tips(frame, die, tetra)
            if tips.face is None:
                return Refusal(Reason.UNCLEAR, blob.box, tips.detail)
            return Implement(Kind.D4, blob.box, tips.confidence, face=tips.face)
        in_play = self.d4_in_play
        hand = None if in_play is None else in_play.hand
        reading = read_d4(*numerals_at(tetra), self._d4_glyphs, hand)
        if in_play is not None:
            _learn_hand(in_play, reading, blob.box)
        font = self.d4_font
        if font is not None and _learn_font(font, reading, blob.box):
            font.doubted(blob.box)
            if font.sure:
                return Refusal(Reason.UNKNOWN_NUMERALS, blob.box, font.why())
            return Refusal(Reason.UNCLEAR, blob.box, f"{font.why()}; too few to blame the font")
        if self.d4_font_of_pictures is not None:
            _learn_font(self.d4_font_of_pictures, reading)
        if reading.value is None:
            return Refusal(Reason.UNCLEAR, blob.box, reading.detail)
        return Implement(Kind.D4, blob.box, reading.confidence, value=reading.value)

    def _read_tips(self, frame: Image, die: _D4, tetra: Tetra) -> BinaryReading:
        """A binary d4's painted tips: a die lying flat (by its outline or its fit at its
        set's size) may have one out of view."""
        outline_flat = die.otherwise is None
        flat = outline_flat or tetra.of_set
        return read_binary_d4(frame, tetra, self.tray.empty, flat=flat, outlined=outline_flat)

    def _read_d6(self, frame: Image, blob: Blob) -> Implement | Refusal:
        side_mm = die_side(blob, self.tray)
        lift = self.tray.lift(*blob.centre, side_mm)
        height = self.tray.camera_height_mm
        pips = count_pips(frame, blob, self.tray.px_per_mm, lift, side_mm, camera_height_mm=height)
        if not pips.lying_flat:
            return Refusal(Reason.COCKED, blob.box, "no square top face")
        if pips.value is None:
            return Refusal(Reason.UNCLEAR, blob.box, "d6 pips")
        return Implement(Kind.D6, blob.box, pips.confidence, value=pips.value)


def _learn_hand(in_play: HandInPlay, reading: D4Reading, where: Box) -> None:
    """What a d4's reading tells of the hand of the d4 in play: a die read by its numerals
    alone tells its own; one that fits the other hand far better, another die in play."""
    if reading.other_hand:
        in_play.forget()
    elif reading.value is not None and not reading.with_hand:
        in_play.told(reading.hand, where)


def _learn_font(font: FontInPlay, reading: D4Reading, where: Box | None = None) -> bool:
    """What a d4's reading tells of the font of the d4 in play (a die the rules read tells
    how well its numerals fit the glyphs; ``where`` it lay, None for a picture of its own);
    whether that font is one the glyphs do not know."""
    if reading.value is not None and reading.familiarity is not None:
        font.told(reading.familiarity, where)
    return font.unknown


def _on_frame(frame: Image, tetra: Tetra) -> tuple[Image, Tetra]:
    return frame, tetra


# Every implement of a kit covers under a tenth of the floor; hands and arms over the tray
# changed 21 % of it at most on the dev set (0113), 17 % on 200 generated throws (seed 173):
# more than half is another tray, another light or the camera moved.
UNLIKE_TRAY_SHARE = 0.5


def _unlike_tray(foreground: Foreground, tray: Tray) -> bool:
    changed = sum(blob.area_mm2 for blob in foreground.blobs)
    return changed > UNLIKE_TRAY_SHARE * tray.floor_mm[0] * tray.floor_mm[1]


def _of_one_set(
    outcomes: list[Implement | Refusal | _D4 | _Stick],
) -> tuple[list[Implement | Refusal | _D4], list[Refusal]]:
    """The outcomes with each stick's implement; and a refusal when the throwing sticks'
    faces are of no one set the profile knows. The sticks thrown together are one set:
    faces that each resemble another set's (a black marked face as the white-black set's
    plain one, a bare wood plain face as the decorated set's), or sticks read as one face
    in two colours, are sticks never enrolled."""
    sticks = [o for o in outcomes if isinstance(o, _Stick) and o.implement.kind is Kind.STICK]
    unpacked = [o.implement if isinstance(o, _Stick) else o for o in outcomes]
    if sticks and not frozenset.intersection(*(stick.looks for stick in sticks)):
        detail = "the sticks' faces are of no one set"
        return unpacked, [Refusal(Reason.UNKNOWN_FACE, detail=detail)]
    for first, second in combinations(sticks, 2):
        same_face = first.implement.face == second.implement.face
        if same_face and math.dist(first.colour, second.colour) > SAME_FACE_COLOUR:
            detail = "sticks read as one face are of two colours"
            return unpacked, [Refusal(Reason.UNKNOWN_FACE, detail=detail)]
    return unpacked, []


def _reads_tips(kit: Kit | None) -> bool:
    """Whether the kit's d4s are binary: read by their painted tips, not numerals."""
    return kit is not None and kit.binary_d4


def _as_kit_die(blob: Blob, call: ShapeCall, kit: Kit | None) -> ShapeCall:
    """A d4 whose outline lost a corner (a face of the felt's shade, a shadow across it)
    looks square, as a d6 does. In a kit of d4s and no d6, such a die is a d4 if it has a
    d4's size: it is then read as one that may be cocked, so that only its numerals or tips,
    found on three fitted faces and checked, can read it; smaller, it is no implement of
    the kit."""
    if kit is None or not kit.d4 or kit.d6 or call != ShapeCall(Shape.FLAT, Kind.D6):
        return call
    if D4_SIDE[0] <= blob.length_mm <= D4_SIDE[1]:
        return ShapeCall(Shape.COCKED)
    return ShapeCall(Shape.UNKNOWN)


def _kit_refusals(implements: list[Implement], refusals: list[Refusal], kit: Kit) -> list[Refusal]:
    """Too many or too few implements for the kit; unreadable ones count as present."""
    counts = Counter(item.kind for item in implements)
    present = len(implements) + len(refusals)
    wanted = kit.sticks + kit.d4 + kit.d6
    extra: list[Refusal] = []
    for kind in Kind:
        if counts[kind] > kit.expected(kind) and not kit.allows(kind, counts[kind]):
            extra.append(Refusal(Reason.TOO_MANY, detail=kind.value))
    if not refusals and any(
        counts[kind] < kit.expected(kind) for kind in (Kind.STICK, Kind.D4, Kind.D6)
    ):
        extra.append(Refusal(Reason.MISSING))
    if present > wanted + (1 if kit.yesno_optional else 0) and not extra:
        extra.append(Refusal(Reason.TOO_MANY))
    return extra


def _after(first: Motion, then: Motion) -> Motion:
    """The motion (2 x 3) of ``first`` followed by ``then``."""
    bottom = np.array([[0.0, 0.0, 1.0]])
    return np.asarray((np.vstack([then, bottom]) @ np.vstack([first, bottom]))[:2], np.float64)
