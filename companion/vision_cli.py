"""``companion vision ...``: calibrate, enrol, read, watch and evaluate.

The application layer is the only place where the camera meets the games. OpenCV and the
vision package are imported inside the handlers, so the rest of the command line works
without the ``vision`` extra.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion import games
from companion.errors import CameraError, VisionSetupError
from companion.reading import Seen, kit_for, throw_text

if TYPE_CHECKING:
    from vision.font import FontInPlay
    from vision.height import HeightEstimate
    from vision.kit import Kit
    from vision.observation import Observation
    from vision.profile import Profile
    from vision.reader import Reader
    from vision.tray import Tray

Handler = Callable[[argparse.Namespace], int]
# vision.kit's kits, named here so that --help works without the vision extra
KIT_NAMES = ("sticks4", "sticks3", "ur", "ur-nostick", "modern", "binary-d4")


def add_vision_commands(commands: Any) -> None:
    """Register ``vision`` and its subcommands on the main parser's subparsers."""
    vision = commands.add_parser("vision", help="read throws from the tray camera")
    sub = vision.add_subparsers(dest="vision_command", required=True, metavar="ACTION")

    calibrate = sub.add_parser("calibrate", help="locate the empty tray and keep it as reference")
    _source(calibrate, required=True)
    calibrate.add_argument("--out", type=Path, default=Path("tray"), help="folder to write")
    calibrate.add_argument(
        "--by",
        choices=("auto", "markers", "outline"),
        default="auto",
        help="find the floor by the printed corner markers, by the felt's outline, or "
        "by the markers when all four are seen (default)",
    )
    _camera_height_option(calibrate)
    _floor_option(calibrate)
    calibrate.set_defaults(handler=_guarded(_calibrate))

    enrol = sub.add_parser("enrol", help="teach a profile the faces of your implements")
    enrol.add_argument("--labels", type=Path, help="a labelled folder to learn from")
    enrol.add_argument("--tray", help="calibration folder or empty-tray image (guided mode)")
    _floor_option(enrol, ", when --tray is an image or the first frame")
    _camera_height_option(enrol, ", when --tray is an image or the first frame")
    _source(enrol)
    enrol.add_argument(
        "--kind",
        choices=("stick", "yesno", "d4"),
        default="stick",
        help="guided mode: the implement shown (default stick)",
    )
    enrol.add_argument("--look", default="mine", help="a name for this set's look")
    enrol.add_argument(
        "--d4-generated",
        type=_at_least_one,
        default=0,
        metavar="N",
        help="with --labels: also learn the d4's numerals from N generated d4s (a plain font)",
    )
    enrol.add_argument(
        "--base",
        type=Path,
        help="guided d4 enrolment: the profile whose stick faces are kept (default: shipped)",
    )
    enrol.add_argument("--out", type=Path, required=True, help="profile file to write")
    enrol.set_defaults(handler=_guarded(_enrol))

    read = sub.add_parser("read", help="read the throw in images or from a source")
    read.add_argument(
        "images", nargs="*", type=Path, metavar="IMAGE", help="pictures of throws (or --source)"
    )
    _reading_options(read)
    _source(read)
    _each_alone_option(read, "pictures")
    read.set_defaults(handler=_guarded(_read))

    watch = sub.add_parser("watch", help="print each settled reading of a live source")
    _reading_options(watch)
    _source(watch, required=True)
    watch.add_argument("--still", type=_at_least_one, default=5, help="still frames before reading")
    watch.add_argument(
        "--averaged",
        type=_at_least_one,
        metavar="N",
        help="still frames averaged per reading (default 4: the camera's noise halved)",
    )
    watch.set_defaults(handler=_guarded(_watch))

    evaluate = sub.add_parser("evaluate", help="measure the reader on a labelled folder")
    evaluate.add_argument(
        "folder", type=Path, metavar="DIR", help="a labelled folder (labels.jsonl), as the dev set"
    )
    evaluate.add_argument("--profile", type=Path, help="profile file (default: shipped one)")
    evaluate.add_argument("--mistakes", type=Path, help="folder for pictures of mistakes")
    evaluate.add_argument(
        "--synthetic",
        type=_at_least_one,
        metavar="N",
        help="first write N generated scenes into DIR (a new or empty folder)",
    )
    evaluate.add_argument("--seed", type=int, default=0, help="with --synthetic: which scenes")
    evaluate.add_argument(
        "--kit",
        choices=KIT_NAMES,
        help="with --synthetic: throws of this kit only (default: every kit, drawn at random)",
    )
    for option, sizes in (("--d4-edge-mm", "d4s' edges"), ("--d6-side-mm", "d6s' sides")):
        evaluate.add_argument(
            option,
            type=float,
            nargs=2,
            metavar=("LOW", "HIGH"),
            help=f"with --synthetic: the generated {sizes}, drawn between LOW and HIGH mm",
        )
    evaluate.add_argument(
        "--d4-font",
        choices=("sans", "script", "light", "stroke"),
        help="with --synthetic: the font family of the generated d4s' numerals (default sans,"
        " the one the shipped profile learned; stroke: thin strokes it never learned)",
    )
    evaluate.add_argument(
        "--d4-hand",
        choices=D4_HANDS,
        help="with --synthetic: every generated d4 numbered so (with the 4 on top, 1, 2, 3 "
        "run clockwise or counterclockwise seen from above), as a set's dice are (default: "
        "either, at random)",
    )
    evaluate.add_argument(
        "--dice-of-felt",
        action="store_true",
        help="with --synthetic: every generated die painted in the felt's colour, seen only "
        "by its shading, its marks and the felt's texture it hides",
    )
    evaluate.add_argument(
        "--d6-glare",
        action="store_true",
        help="with --synthetic: a lamp's reflection on every generated d6's top face, "
        "fading its pips where it is brightest",
    )
    evaluate.add_argument(
        "--banded-shadows",
        action="store_true",
        help="with --synthetic: shadows drawn as before round 41 of docs/vision-rounds.md, "
        "each implement outlined by a band of unshadowed felt a pixel or two wide (by "
        "default a shadow reaches its implement, as a real one does)",
    )
    evaluate.add_argument(
        "--resolution",
        type=float,
        metavar="FACTOR",
        help="with --synthetic: pictures of FACTOR times the development set's 1200x900 "
        "pixels, the same view (2: 2400x1800; from 0.75 to 3)",
    )
    evaluate.add_argument(
        "--detail-numerals",
        action="store_true",
        help="read the d4's numerals from the pictures' own pixels where they have more than "
        "the working scale (a measurement: off in every other command, see docs/vision.md)",
    )
    _each_alone_option(evaluate, "folder's pictures")
    _floor_option(evaluate, "; with --synthetic, the trays drawn")
    _camera_height_option(
        evaluate,
        "; not given (or 'auto'), measured from the folder's d4s lying away from the middle "
        "and used where they fit it clearly better than 380; a scene's labels may say "
        "camera_height_mm; with --synthetic, the height the dice are drawn from",
        auto=True,
    )
    evaluate.add_argument("--json", action="store_true", help="the report as JSON")
    evaluate.set_defaults(handler=_guarded(_evaluate))


D4_HANDS = ("clockwise", "counterclockwise")  # vision.hand.Hand's values


def _drawn_resolution(given: float | None) -> float:
    from vision.synthetic import DRAWN_RESOLUTION

    low, high = DRAWN_RESOLUTION
    resolution = 1.0 if given is None else given
    if not low <= resolution <= high:
        raise VisionSetupError(f"--resolution {resolution:g}: from {low:g} to {high:g}")
    return resolution


def _size_range(
    option: str, given: list[float] | None, default: tuple[float, float]
) -> tuple[float, float]:
    low, high = given or default
    if not 0 < low <= high:
        raise VisionSetupError(f"{option} {low:g} {high:g}: two sizes in mm, the smaller first")
    return low, high


def _source(parser: argparse.ArgumentParser, required: bool = False) -> None:
    parser.add_argument(
        "--source",
        required=required,
        help="'pi' (Pi camera), a camera number, a video file or a folder of images",
    )


def _floor_option(parser: argparse.ArgumentParser, more: str = "") -> None:
    parser.add_argument(
        "--floor-mm",
        type=_floor_mm,
        default=None,
        metavar="LONGxSHORT",
        help=f"the inside of the tray, in mm (default 400x300){more}",
    )


def _camera_height_option(
    parser: argparse.ArgumentParser, more: str = "", *, auto: bool = False
) -> None:
    parser.add_argument(
        "--camera-height",
        type=_camera_height_or_auto if auto else _camera_height,
        default=None,
        metavar="MM",
        help=f"the lens above the felt, in mm{'' if auto else ' (default 380)'}{more}",
    )


def _each_alone_option(parser: argparse.ArgumentParser, pictures: str) -> None:
    from vision.font import PICTURES_FEWEST  # no OpenCV: vision.font reads no picture

    parser.add_argument(
        "--each-alone",
        action="store_true",
        help=f"judge each d4 by its own numerals alone (default: the {pictures} are of one "
        f"set, and once {PICTURES_FEWEST} d4s or more are read, all are refused when their "
        "numerals fit the profile's glyphs too loosely in the median: a font it does not "
        "know, to enrol, as the device refuses it in a game)",
    )


def _reading_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--tray",
        help="calibration folder or image of the empty tray (with --source, default: its "
        "first frame)",
    )
    _floor_option(parser, ", when --tray is an image or the first frame")
    _camera_height_option(parser, ", when --tray is an image or the first frame")
    parser.add_argument("--profile", type=Path, help="profile file (default: shipped one)")
    parser.add_argument("--expect", metavar="KIT", help=f"what was thrown: {', '.join(KIT_NAMES)}")
    parser.add_argument("--game", help="rule set: gives the kit and turns readings into throws")
    parser.add_argument("--json", action="store_true", help="machine-readable output")


def _guarded(handler: Handler) -> Handler:
    """Vision's own errors become the project's, so the command line shows a message."""

    def run(args: argparse.Namespace) -> int:
        try:
            import cv2
            import numpy  # noqa: F401

            from vision.errors import CameraUnavailableError, VisionError
        except ImportError as missing:
            raise VisionSetupError(
                f"the camera pipeline is not installed ({missing.name} is missing): "
                "pip install -e '.[vision]', or on the Pi: sudo apt install python3-opencv"
            ) from None
        _quiet(cv2)
        try:
            return handler(args)
        except CameraUnavailableError as error:
            raise CameraError(str(error)) from None
        except VisionError as error:
            raise VisionSetupError(str(error)) from None

    return run


def _quiet(cv2: Any) -> None:
    """OpenCV's and FFmpeg's own warnings (a camera number that does not answer, a file
    that is no video) said before our message would bury it: errors only."""
    os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "-8")  # FFmpeg's AV_LOG_QUIET
    logging = getattr(getattr(cv2, "utils", None), "logging", None)
    if logging is not None:
        logging.setLogLevel(logging.LOG_LEVEL_ERROR)


def _at_least_one(text: str) -> int:
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"{number}: at least 1")
    return number


def _camera_height(text: str) -> float:
    """``--camera-height``: a lens far enough above the felt for dice to lie below it (the
    bounds are vision.tray.LENS_ABOVE_FELT_MM, named here so that --help needs no OpenCV)."""
    try:
        height = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of millimetres") from None
    if not 100 <= height <= 2000:
        raise argparse.ArgumentTypeError(f"{text} mm: the lens is 100 to 2000 mm above the felt")
    return height


def _camera_height_or_auto(text: str) -> float | str:
    return "auto" if text == "auto" else _camera_height(text)


def _floor_mm(text: str) -> tuple[float, float]:
    """``--floor-mm``: the tray's inside as LONGxSHORT millimetres (calibration says whether
    a tray can be of that size)."""
    try:
        first, second = (float(part) for part in text.lower().replace(" ", "").split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r}: the tray's inside as LONGxSHORT millimetres, e.g. 400x300"
        ) from None
    return max(first, second), min(first, second)


def _load_tray(
    spec: str | None,
    frames: Iterator[Any] | None,
    args: argparse.Namespace,
    *,
    averaged: int | None = None,
) -> Tray:
    """The tray of ``--tray``; without it, the first of ``frames`` is the empty tray (the
    frames after it are then the pictures; with ``averaged``, a camera's or a video's,
    whose first still frames are averaged as its throws are: see
    ``vision.stack.still_average``). An empty tray's picture is calibrated as of
    ``--floor-mm`` inside (default 400 x 300 mm), with the lens ``--camera-height`` above
    the felt (default 380 mm); a calibration folder says both."""
    from vision.errors import CalibrationError
    from vision.stack import still_average
    from vision.tray import CAMERA_HEIGHT_MM, FLOOR_MM, Tray, calibrate, read_image

    floor_mm, height = args.floor_mm, args.camera_height
    inside, above = floor_mm or FLOOR_MM, height or CAMERA_HEIGHT_MM
    if spec is None:
        if frames is None:
            raise CalibrationError("give --tray: a calibration folder or an empty-tray image")
        empty = next(frames) if averaged is None else still_average(frames, count=averaged)
        return calibrate(empty, above, floor_mm=inside)
    path = Path(spec)
    if not path.is_dir():
        return calibrate(read_image(path), above, floor_mm=inside)
    tray = Tray.load(path)
    if floor_mm is not None and floor_mm != tray.floor_mm:
        raise CalibrationError(
            "the calibration in {} is of a tray of {:g} x {:g} mm, not {:g} x {:g}: calibrate "
            "again with --floor-mm, or leave --floor-mm out".format(path, *tray.floor_mm, *floor_mm)
        )
    if height is not None and height != tray.camera_height_mm:
        raise CalibrationError(
            f"the calibration in {path} is of a camera {tray.camera_height_mm:g} mm above "
            f"the felt, not {height:g}: calibrate again with --camera-height, or leave "
            "--camera-height out"
        )
    return tray


def _load_profile(path: Path | None) -> Profile:
    from vision.profile import Profile, default_profile

    return default_profile() if path is None else Profile.load(path)


def _kit(args: argparse.Namespace) -> Kit | None:
    from vision.kit import kit_named

    if args.game is not None and args.expect is not None:
        raise VisionSetupError("give --expect or --game, not both (a game gives its kit)")
    if args.game:
        return kit_named(kit_for(games.get(args.game)))
    return None if args.expect is None else kit_named(args.expect)


def _calibrate(args: argparse.Namespace) -> int:
    from vision.markers import calibrate_with_markers, find_markers, markers_available
    from vision.sources import is_stream
    from vision.stack import still_average
    from vision.tray import CAMERA_HEIGHT_MM, FLOOR_MM, calibrate, require_empty

    height = args.camera_height or CAMERA_HEIGHT_MM
    with _opened(args) as frames:
        # A camera's or a video's empty tray is averaged as its throws are (vision.focus).
        empty = still_average(frames) if is_stream(args.source) else next(frames)
    by = args.by
    if by == "auto":
        seen = find_markers(empty) if markers_available() else {}
        by = "markers" if len(seen) == 4 else "outline"
    calibrated_by = calibrate_with_markers if by == "markers" else calibrate
    tray = calibrated_by(empty, height, floor_mm=args.floor_mm or FLOOR_MM)
    require_empty(tray)
    tray.save(args.out)
    scale = f"{tray.px_per_mm / tray.scale:.2f} px/mm"
    if tray.scale != 1.0:
        scale += f", read at {tray.px_per_mm:.2f} (pictures resized by {tray.scale:.2f})"
    inside = "{:g} x {:g} mm".format(*tray.floor_mm)
    print(f"tray found by its {by} ({inside} inside): {scale}; written to {args.out}")
    if tray.keystone is not None:
        print(
            "the camera looks at the tray at a slant (its floor seen as a keystone): each "
            "picture is straightened before it is read, which takes time; mounted looking "
            "straight down, it would not be"
        )
    return 0


@contextmanager
def _opened(args: argparse.Namespace) -> Iterator[Iterator[Any]]:
    with _opened_source(args) as (_, frames):
        yield frames


@contextmanager
def _opened_source(args: argparse.Namespace) -> Iterator[tuple[Any, Iterator[Any]]]:
    """``--source`` opened; a Pi camera's lens focused at ``--camera-height``."""
    from vision.errors import CameraUnavailableError
    from vision.sources import open_source

    spec = args.source
    source = open_source(spec, camera_height_mm=_height_known(args))
    try:
        frames = source.frames()
        yield source, _nonempty(frames, CameraUnavailableError(f"{spec}: no frame"))
    finally:
        source.close()


def _height_known(args: argparse.Namespace) -> float | None:
    """The camera's height before its tray is loaded (to focus a Pi camera's lens): told,
    else a calibration folder's; None when neither says."""
    from vision.tray import saved_camera_height

    told = getattr(args, "camera_height", None)
    if isinstance(told, float):
        return told
    tray = getattr(args, "tray", None)
    return saved_camera_height(Path(tray)) if tray else None


def _nonempty(frames: Iterator[Any], error: Exception) -> Iterator[Any]:
    first = next(frames, None)
    if first is None:
        raise error
    yield first
    yield from frames


def _enrol(args: argparse.Namespace) -> int:
    from vision.dataset import generated_d4s, labelled_enrolment, load_scenes
    from vision.numerals import learn_glyphs
    from vision.profile import Profile, enrol

    _check_writable(args.out)
    _check_enrolment_options(args)
    glyphs: list[Any] = []
    if args.labels is not None:
        learned = labelled_enrolment(load_scenes(args.labels))
        examples = list(learned.examples)
        glyphs = list(learned.glyphs())
        if args.d4_generated > 0:
            glyphs += learn_glyphs(list(generated_d4s(args.d4_generated)), "generated")
    elif args.source is not None and args.kind == "d4":
        base = _load_profile(args.base)
        examples = []
        glyphs = _guided_glyphs(args)
        profile = Profile(args.out.stem, base.prototypes, tuple(glyphs))
        profile.save(args.out)
        print(f"d4 numerals: {len(glyphs)} glyphs; stick faces kept from {base.name!r}")
        print(f"profile written to {args.out}")
        return 0
    elif args.source is not None:
        examples = _guided_examples(args)
    else:
        raise VisionSetupError(
            "give --labels DIR, or --source for guided enrolment (with --tray, or the first "
            "picture is the empty tray)"
        )
    profile = enrol(args.out.stem, examples, glyphs)
    profile.save(args.out)
    for prototype in profile.prototypes:
        print(
            f"{prototype.kind.value} {prototype.face} ({prototype.look}): "
            f"{prototype.examples} examples"
        )
    if glyphs:
        looks = sorted({glyph.look for glyph in glyphs})
        print(f"d4 numerals: {len(glyphs)} glyphs ({', '.join(looks)})")
    print(f"profile written to {args.out}")
    return 0


def _check_enrolment_options(args: argparse.Namespace) -> None:
    """Options of the other way of enrolling are refused rather than left unused."""
    if args.labels is not None and args.source is not None:
        raise VisionSetupError("give --labels (learn from labels) or --source (guided), not both")
    if args.d4_generated and args.labels is None:
        raise VisionSetupError("--d4-generated goes with --labels")


def _guided_glyphs(args: argparse.Namespace) -> list[Any]:
    """Pictures show the d4s with 1, 2, 3, 4, 1, 2, ... on top: glyphs from their faces."""
    from vision.dataset import d4s_in
    from vision.guided import learnt_glyphs
    from vision.numerals import VALUES

    say = sys.stderr
    print(
        "Teaching the numerals of your d4. Throw it (or several of the same set) onto the "
        "tray, then turn it so that the value asked shows at the top point, and take the "
        "picture; keep it away from the walls and hands out of the picture. The values go "
        "1, 2, 3, 4, then again: three rounds or more are best.",
        file=say,
    )
    shown: list[tuple[int, Any]] = []
    with _opened(args) as frames:
        tray = _load_tray(args.tray, frames, args)
        step = 0  # a picture with no d4 taken asks for the same value again
        for index, frame in enumerate(frames):
            value = VALUES[step % len(VALUES)]
            seen = list(d4s_in(frame, tray))
            shown += [(value, numerals) for numerals in seen]
            step += 1 if seen else 0
            advice = "" if seen else f": no d4 lying flat seen, show {value} on top again"
            print(f"picture {index + 1} ({value} on top): {len(seen)} taken{advice}", file=say)
    return list(learnt_glyphs(shown, args.look))


GUIDED_MIN_EXAMPLES = 3  # of each face, in guided enrolment


def _guided_examples(args: argparse.Namespace) -> list[Any]:
    """Frames alternate: all marked faces up, then all plain faces up, a few times each."""
    from vision.guided import flat_examples
    from vision.observation import Kind
    from vision.profile import Example
    from vision.segment import Segmenter

    kind = Kind(args.kind)
    name = "yes/no stick" if kind is Kind.YESNO else "stick"
    examples: list[Example] = []
    say = sys.stderr
    print(
        f"Teaching the faces of your {name}s. Lay them flat on the tray, apart from one "
        "another and from the walls, and keep hands out of the picture. Each picture "
        "alternates: first every marked face up, then every plain face up; turn them all "
        "over between pictures and move them a little. Four pictures or more are best.",
        file=say,
    )
    with _opened(args) as frames:
        tray = _load_tray(args.tray, frames, args)
        segmenter = Segmenter(tray)
        step = 0  # a picture with nothing taken asks for the same faces again
        for index, frame in enumerate(frames):
            face = "MP"[step % 2]
            shown = "marked" if face == "M" else "plain"
            taken = flat_examples(frame, segmenter, kind, face, args.look)
            examples += taken
            step += 1 if taken else 0
            advice = "" if taken else f": no flat {name} seen, show the {shown} faces again"
            print(
                f"picture {index + 1} (every {name} {shown} face up): {len(taken)} taken{advice}",
                file=say,
            )
    for face, shown in (("M", "marked"), ("P", "plain")):
        count = sum(example.face == face for example in examples)
        if count < GUIDED_MIN_EXAMPLES:
            raise VisionSetupError(
                f"only {count} {shown} faces were seen; show at least {GUIDED_MIN_EXAMPLES} "
                f"(more pictures, every {name} {shown} face up)"
            )
    return examples


def _read(args: argparse.Namespace) -> int:
    """Each image (or frame of ``--source``) read and reported; an image that cannot be
    read is reported as such and the others still read (exit status 2 then). Image files
    are reported once all are read, their d4s' font judged over them all (see
    ``vision.font.refused_for_font``), or each as it is read with ``--each-alone``; a
    camera's or a video's frames each as it is read, by itself."""
    from vision.errors import CalibrationError
    from vision.font import FontInPlay
    from vision.reader import Reader
    from vision.tray import read_image

    if args.images and args.source is not None:
        raise VisionSetupError("give IMAGE files or --source, not both")
    kit = _kit(args)
    profile = _load_profile(args.profile)
    results: list[dict[str, Any]] = []
    failed = 0
    images, tray = args.images, args.tray
    if args.source is not None and not images:
        images, tray = _folder_images(args.source, tray)
    if images:
        font = None if args.each_alone else FontInPlay.of_pictures()
        loaded = _load_tray(tray, None, args)
        reader = Reader(loaded, profile, d4_font_of_pictures=font)
        if not args.each_alone:
            _height_of_pictures(images, reader, kit, args)
        # Each reported as it is read, or, their d4s' font judged together, once all are:
        # kept meanwhile as an observation or the message of an image that cannot be read.
        waiting: list[tuple[Path, Observation | str]] = []
        for path in images:
            try:  # an unreadable image, or one of another camera's size
                reading: Observation | str = reader.read(read_image(path), kit)
            except CalibrationError as error:
                reading = str(error)
            failed += isinstance(reading, str)
            if font is None:
                results.append(_reported(path, reading, None, args))
            else:
                waiting.append((path, reading))
        results += [_reported(path, reading, font, args) for path, reading in waiting]
    elif args.source is not None:
        with _opened(args) as frames:
            reader = Reader(_load_tray(args.tray, frames, args), profile)
            for index, frame in enumerate(frames):
                results.append(_report(f"frame {index + 1}", reader.read(frame, kit), args))
    else:
        raise VisionSetupError("give IMAGE files or --source")
    if args.json:
        print(json.dumps(results, indent=2))
    return 2 if failed else 0


def _height_of_pictures(
    images: list[Path], reader: Reader, kit: Kit | None, args: argparse.Namespace
) -> None:
    """Pictures of one tray whose camera's height was not told (``--camera-height``, or a
    calibration whose height a game judged) measure it by their d4s, as ``evaluate``
    measures a folder's (``vision.height``; binary d4s by those a first reading finds
    with the marked tip down): ``reader`` reads as from the height they prefer to the
    tray's beyond chance, said on stderr. Fewer pictures than could ever prefer one are
    not measured."""
    from vision.errors import CalibrationError
    from vision.height import FEWEST_CONVINCING, HeightEvidence, bare_tops
    from vision.reader import Reader
    from vision.tray import read_image

    tray = reader.tray
    told = args.camera_height is not None or tray.height_judged
    if told or kit is None or not kit.d4 or len(images) < FEWEST_CONVINCING:
        return  # d6s were never measured for it
    evidence = HeightEvidence()
    # Binary d4s read once first, by a reader of their own: what it follows of the tray
    # leaves the reading alone.
    first_pass = Reader(tray, reader.profile) if kit.binary_d4 else None
    for path in images:  # decoded again to be read: kept, 40 pictures would hold 130 MB
        try:
            picture = read_image(path)
            bare = None if first_pass is None else bare_tops(first_pass.read(picture, kit))
            evidence.add(picture, tray, bare)
        except CalibrationError:
            continue  # unreadable, or of another camera: said when it is read
        if evidence.enough:
            break
    estimate = evidence.estimate(tray.camera_height_mm)
    if estimate is None or estimate.chosen_mm == tray.camera_height_mm:
        return
    reader.seen_from(estimate.chosen_mm)
    said = _height_chosen_by(estimate, "pictures")
    print(f"{said}: read as from it (--camera-height tells it)", file=sys.stderr)


def _reported(
    path: Path, reading: Observation | str, font: FontInPlay | None, args: argparse.Namespace
) -> dict[str, Any]:
    """One image's reading reported (``reading``: the message of one that cannot be read),
    its numbered d4s refused when ``font``, told by all the images read, is unknown."""
    from vision.font import refused_for_font

    if isinstance(reading, str):
        return _report_error(str(path), reading, args)
    judged = reading if font is None else refused_for_font(reading, font)
    return _report(str(path), judged, args)


def _folder_images(spec: str, tray: str | None) -> tuple[list[Path], str | None]:
    """The images of a folder (or the image) given as ``--source``, none for a camera or a
    video, read as IMAGE arguments are: each named, and one that cannot be read does not
    stop the others. Without ``tray``, the first is the empty tray."""
    from vision.sources import IMAGE_SUFFIXES, FolderSource

    path = Path(spec)
    if path.is_dir():
        paths = FolderSource.from_folder(path).paths
    elif path.is_file() and path.suffix.lower() in IMAGE_SUFFIXES:
        paths = [path]
    else:
        return [], tray
    if tray is not None:
        return paths, tray
    first, *rest = paths
    if not rest:
        raise VisionSetupError(
            f"{spec}: its one image is taken as the empty tray, which leaves nothing to read "
            "(give --tray)"
        )
    return rest, str(first)


def _report_error(name: str, message: str, args: argparse.Namespace) -> dict[str, Any]:
    if not args.json:
        print(f"{name}: cannot be read: {message}", file=sys.stderr)
    return {"image": name, "error": message}


def _report(name: str, observation: Observation, args: argparse.Namespace) -> dict[str, Any]:
    record: dict[str, Any] = {"image": name, **observation.as_dict()}
    line = observation.summary()
    if args.game and not observation.refused:
        rules = games.get(args.game)
        seen = [Seen(i.kind.value, i.face, i.value) for i in observation.implements]
        text = throw_text(kit_for(rules), seen)
        throw = rules.parse_throw(text)
        record["throw"] = {"faces": text, **rules.throw_record(throw)}
        line += f" -> {text}: {throw}"
    if not args.json:
        print(f"{name}: {line}", flush=True)  # a live source's readings shown as they come
    return record


def _watch(args: argparse.Namespace) -> int:
    from vision.height import HeightInPlay
    from vision.reader import Reader
    from vision.sources import is_stream, small_pictures
    from vision.stack import STACKED
    from vision.watcher import ThrowWatcher

    kit = _kit(args)
    profile = _load_profile(args.profile)
    with _opened_source(args) as (source, frames):
        averaged = args.averaged or STACKED
        tray = _load_tray(
            args.tray, frames, args, averaged=averaged if is_stream(args.source) else None
        )
        watcher = ThrowWatcher(
            Reader(tray, profile, learn_hand=True),  # the throws of one game, in order
            kit,
            still_frames=args.still,
            averaged=averaged,
            # not told: measured from the throws' d4s (a calibration folder's may be a guess)
            height=None if args.camera_height else HeightInPlay(tray.camera_height_mm),
        )
        count = 0
        small = small_pictures(source)
        for frame in frames:
            started = time.perf_counter()
            observation = watcher.offer(frame, small=small())
            if observation is None:
                continue
            count += 1
            elapsed = (time.perf_counter() - started) * 1000
            record = _report(f"throw {count} ({elapsed:.0f} ms)", observation, args)
            if args.json:  # a line per throw, as it settles
                del record["image"]
                line = {"throw_number": count, "ms": round(elapsed), **record}
                print(json.dumps(line), flush=True)
            learned = watcher.measure_height()
            if learned is not None and watcher.height and watcher.height.estimate:
                _say_height(learned, watcher.height.estimate, args)
    return 0


def _say_height(learned: float, estimate: HeightEstimate, args: argparse.Namespace) -> None:
    """A camera's height its throws judged, said once, as it is read from."""
    if args.json:
        line = {"camera_height_mm": learned, "measured_from_throws": estimate.throws}
        print(json.dumps(line), flush=True)
        return
    if learned == estimate.assumed_mm:
        print(
            f"the camera is {learned:g} mm above the felt, as assumed: {estimate.throws} "
            f"throws' d4s fit {estimate.height_mm:.0f} mm, no better beyond chance",
            flush=True,
        )
        return
    said = _height_chosen_by(estimate, "throws")
    print(f"{said}: read as from it from now on (--camera-height {learned:g} tells it)", flush=True)


def _height_chosen_by(estimate: HeightEstimate, by: str) -> str:
    """The height ``by`` (throws, pictures) chose over the one assumed, and how many said so."""
    return (
        f"the camera is {estimate.chosen_mm:g} mm above the felt, as {estimate.closer} of "
        f"{estimate.throws} {by}' d4s say ({estimate.farther} fit {estimate.assumed_mm:g} better)"
    )


def _evaluate(args: argparse.Namespace) -> int:
    from vision.dataset import load_scenes
    from vision.evaluate import TrayReaders, evaluate
    from vision.hand import Hand
    from vision.synthetic import D4_EDGE_MM, D6_SIDE_MM, SCENE_KITS, check_drawable, write_set
    from vision.tray import FLOOR_MM, floor_size

    floor_mm = floor_size(*(args.floor_mm or FLOOR_MM))
    if args.synthetic:
        try:
            check_drawable(floor_mm)
        except ValueError as error:
            raise VisionSetupError(f"--floor-mm: {error}") from None
        resolution = _drawn_resolution(args.resolution)
        d4_edge_mm = _size_range("--d4-edge-mm", args.d4_edge_mm, D4_EDGE_MM)
        d6_side_mm = _size_range("--d6-side-mm", args.d6_side_mm, D6_SIDE_MM)
        drawn_from = _drawn_height(args.camera_height)
        _check_unused(args.folder)
        try:
            write_set(
                args.folder,
                args.synthetic,
                seed=args.seed,
                d4_edge_mm=d4_edge_mm,
                d6_side_mm=d6_side_mm,
                d4_font=args.d4_font or "sans",
                floor_mm=floor_mm,
                kits=SCENE_KITS if args.kit is None else (args.kit,),
                resolution=resolution,
                d4_hand=None if args.d4_hand is None else Hand(args.d4_hand),
                dice_of_felt=args.dice_of_felt,
                d6_glare=args.d6_glare,
                grounded_shadows=not args.banded_shadows,
                camera_height_mm=drawn_from,
            )
        except ValueError as error:  # a kit with no room on the floor asked for
            _drawn_away(args.folder)
            raise VisionSetupError(f"--floor-mm: {error}") from None
    elif (
        args.d4_edge_mm
        or args.d6_side_mm
        or args.d4_font
        or args.d4_hand
        or args.dice_of_felt
        or args.d6_glare
        or args.banded_shadows
        or args.kit
        or args.resolution is not None
    ):
        raise VisionSetupError(
            "--d4-edge-mm, --d6-side-mm, --d4-font, --d4-hand, --dice-of-felt, --d6-glare, "
            "--banded-shadows, --kit and --resolution draw generated throws: give "
            "--synthetic N too"
        )
    if args.mistakes is not None:
        _made_folder(args.mistakes, "the pictures of mistakes")
    profile = _load_profile(args.profile)
    read = TrayReaders(profile, detail_numerals=args.detail_numerals, each_alone=args.each_alone)
    scenes = load_scenes(args.folder)
    given = isinstance(args.camera_height, float)
    measured = None if given else _measured_height(scenes, floor_mm, profile)
    height = args.camera_height if given else _height_to_use(measured)
    report = evaluate(scenes, read, args.mistakes, floor_mm=floor_mm, camera_height_mm=height)
    geometry = _geometry(scenes, floor_mm, height, measured, given=given)
    if args.json:
        print(json.dumps({"calibrated_as": geometry, **report.as_dict()}, indent=2))
    else:
        print(_geometry_text(geometry))
        print(report.text())
        if args.mistakes:
            print(f"pictures of {report.pictures} mistakes in {args.mistakes}")
    return 0


def _drawn_height(given: float | str | None) -> float:
    from vision.tray import CAMERA_HEIGHT_MM

    if given == "auto":
        raise VisionSetupError("with --synthetic, --camera-height is the height drawn: in mm")
    return CAMERA_HEIGHT_MM if given is None else float(given)


def _measured_height(
    scenes: list[Any], floor_mm: tuple[float, float], profile: Profile
) -> HeightEstimate | None:
    """The height the d4s of the scenes whose labels do not say theirs tell
    (vision.height; a throw of binary d4s read first with ``profile``, to find those with
    the marked tip down), against the usual 380 mm; None when too few tell it."""
    from vision.errors import CalibrationError
    from vision.height import HeightEvidence, bare_tops
    from vision.reader import Reader
    from vision.tray import CAMERA_HEIGHT_MM, read_image

    evidence = HeightEvidence()
    last: tuple[Path, Reader] | None = None  # scenes in a row often share their tray
    for scene in scenes:
        if not _tells_height(scene):
            continue
        try:
            picture, tray = read_image(scene.image), scene.calibrated(floor_mm)
        except CalibrationError:
            continue
        bare = None
        if scene.kit.binary_d4:
            if last is None or last[0] != scene.tray:
                last = scene.tray, Reader(tray, profile)
            bare = bare_tops(last[1].read(picture, scene.kit))
        evidence.add(picture, tray, bare)
        if evidence.enough:
            break
    return evidence.estimate(CAMERA_HEIGHT_MM)


def _tells_height(scene: Any) -> bool:
    """A scene whose labels do not say its camera's height, of a kit with a d4 (d6s were
    never measured for it: vision.height)."""
    return scene.camera_height_mm is None and bool(scene.kit.d4)


def _height_to_use(measured: HeightEstimate | None) -> float:
    """The measured height where the throws prefer it to the usual 380 mm beyond chance
    (``HeightEstimate.chosen_mm``); else 380."""
    from vision.tray import CAMERA_HEIGHT_MM

    return CAMERA_HEIGHT_MM if measured is None else measured.chosen_mm


def _geometry(
    scenes: list[Any],
    floor_mm: tuple[float, float],
    height: float,
    measured: HeightEstimate | None,
    *,
    given: bool,
) -> dict[str, Any]:
    """What the trays were calibrated as, unless a scene's labels say otherwise: the
    perspective of dice, taken wrong, costs readings (generated throws from 260 mm taken
    as from 380: a quarter of their clean throws refused, against 2 %). ``measured``: what
    the folder's d4s told of the height, when it was not given."""
    return {
        "floor_mm": list(floor_mm),
        "camera_height_mm": height,
        "camera_height_given": given,
        "camera_height_measured": None
        if measured is None
        else {
            "height_mm": round(measured.height_mm, 1),
            "assumed_mm": measured.assumed_mm,
            "throws": measured.throws,
            "fit_better_than_assumed": measured.closer,
            "fit_worse": measured.farther,
            "used": measured.convincing,
        },
        "unlabelled_d4_throws": sum(_tells_height(scene) for scene in scenes),
        "labelled_floor_mm": sum(scene.floor_mm is not None for scene in scenes),
        "labelled_camera_height_mm": sum(scene.camera_height_mm is not None for scene in scenes),
    }


def _geometry_text(geometry: dict[str, Any]) -> str:
    long, short = geometry["floor_mm"]
    labelled = [
        f"{count} scenes' labels say their {what}"
        for count, what in (
            (geometry["labelled_floor_mm"], "floor"),
            (geometry["labelled_camera_height_mm"], "camera's height"),
        )
        if count
    ]
    return (
        f"trays calibrated as {long:g} x {short:g} mm inside (--floor-mm), the camera "
        f"{geometry['camera_height_mm']:g} mm above the felt ({_height_told(geometry)})"
        + "".join(f"; {line}" for line in labelled)
    )


def _height_told(geometry: dict[str, Any]) -> str:
    """Where the camera's height came from."""
    measured = geometry["camera_height_measured"]
    if measured is None:
        if geometry["camera_height_given"]:
            return "--camera-height"
        if geometry["unlabelled_d4_throws"]:
            return "the usual: too few throws' d4s to measure it"
        return "the usual"
    fit = f"{measured['throws']} throws' d4s fit {measured['height_mm']:.0f} mm"
    counts = f"{measured['fit_better_than_assumed']} better, {measured['fit_worse']} worse"
    if measured["used"]:
        return f"measured: {fit}, {counts} than at {measured['assumed_mm']:g}"
    return f"the usual: {fit}, no better beyond chance ({counts})"


def _drawn_away(folder: Path) -> None:
    """The pictures a generated set left in ``folder`` (new or empty before it) taken
    away: its labels are written only once every scene is drawn."""
    for part in ("images", "trays"):
        shutil.rmtree(folder / part, ignore_errors=True)


def _made_folder(folder: Path, what: str) -> None:
    """``folder`` made if need be, or a message saying why ``what`` cannot go there."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        reason = error.strerror or str(error)
        raise VisionSetupError(f"{what} cannot be written to {folder}: {reason}") from None


def _check_unused(folder: Path) -> None:
    """A generated set goes into a new or empty folder: written over a labelled folder,
    it would replace its labels and could write through its links into the images."""
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise VisionSetupError(
            f"{folder} is not an empty folder: --synthetic writes a new set, give a new folder"
        )


def _check_writable(path: Path) -> None:
    """A message now, before a guided session's pictures are taken, when the profile
    could not be written at its end."""
    if path.is_dir():
        raise VisionSetupError(f"the profile cannot be written to {path}: it is a folder")
    if not path.parent.is_dir():
        raise VisionSetupError(f"the profile cannot be written to {path}: no such folder")
