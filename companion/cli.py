"""The ``companion`` command: settle disputes, list moves, play on a real board.

Exit status: 0 success (for ``check``: the move is legal), 1 the move is illegal,
2 bad input, with a message naming what is wrong. Nothing a person types ends in a
traceback: every error of ours is caught here and printed.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

from companion import games
from companion.core import Move, RaceGame, RuleSet
from companion.errors import CompanionError, NotationError
from companion.play import PLAIN_MOVE, run_session, throw_label
from companion.rules import Ruling
from companion.throws import Throw
from companion.vision_cli import add_vision_commands

EXIT_OK, EXIT_ILLEGAL, EXIT_BAD_INPUT = 0, 1, 2

AnyGame = RaceGame[Any]


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        return int(args.handler(args))
    except CompanionError as error:
        print(f"companion: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # output piped into a program that stopped reading (e.g. head)
        sys.stderr.close()
        return EXIT_OK


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion",
        description="Rules companion for Senet and the other ancient race games.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    listing = commands.add_parser("games", help="list the rule sets")
    listing.add_argument("--json", action="store_true", help="machine-readable output")
    listing.set_defaults(handler=_games)

    throw = commands.add_parser("throw", help="score a throw and say who throws next")
    throw.add_argument("game", metavar="GAME", help="rule set, see 'companion games'")
    throw.add_argument(
        "faces",
        metavar="THROW",
        help="what the implements show: sticks MMPP (M marked, P plain), Ur die 3, 3+yes, "
        "3+no, two dice 4,6",
    )
    throw.add_argument("--json", action="store_true", help="machine-readable output")
    throw.set_defaults(handler=_throw)

    moves = commands.add_parser("moves", help="the legal moves for a throw")
    _add_game_and_throw(moves)
    moves.add_argument("--position", metavar="P", help="position in notation (default: start)")
    _add_output_options(moves)
    _add_rule_options(moves)
    moves.set_defaults(handler=_moves)

    check = commands.add_parser("check", help="is this move legal? which rule decides?")
    _add_game_and_throw(check)
    check.add_argument("move", metavar="MOVE", help="e.g. 14-18, 26-off, pass")
    check.add_argument("--position", metavar="P", required=True, help="position in notation")
    _add_output_options(check)
    check.set_defaults(handler=_check)

    play = commands.add_parser("play", help="play a game on a real board from the terminal")
    play.add_argument("game", metavar="GAME")
    play.add_argument("--new", action="store_true", help="start over even if a game is saved")
    play.add_argument("--save", metavar="FILE", help="save file (default: per rule set)")
    play.add_argument("--lang", choices=("fr", "en"), default="en")
    play.add_argument("--seed", type=int, help="seed for random throws")
    play.add_argument(
        "--sphinx",
        type=int,
        action="append",
        default=[],
        metavar="SIDE",
        help="the companion plays this side (1, 2, ...; repeatable for a Mehen table)",
    )
    play.add_argument(
        "--level", choices=("easy", "normal", "strong"), default="normal", help="the Sphinx's level"
    )
    _add_rule_options(play)
    play.set_defaults(handler=_play)

    stats = commands.add_parser("stats", help="are your sticks fair? statistics of logged throws")
    stats.add_argument("game", metavar="GAME")
    stats.add_argument(
        "--log",
        metavar="FILE",
        action="append",
        help="a throw log, may be repeated (default: the logs 'play' and the device write)",
    )
    stats.add_argument("--json", action="store_true", help="machine-readable output")
    stats.set_defaults(handler=_stats)

    demo = commands.add_parser(
        "demo", help="play a whole game through the device's screens (GIF and transcript)"
    )
    demo.add_argument("--game", default="senet-kendall", metavar="GAME")
    demo.add_argument("--seed", type=int, default=2026)
    demo.add_argument("--lang", choices=("fr", "en"), default="en")
    demo.add_argument("--out", default="out/demo", metavar="DIR", help="where to write them")
    demo.add_argument("--text", action="store_true", help="print the game instead (no screens)")
    demo.set_defaults(handler=_demo)

    run = commands.add_parser("run", help="the device: on a Pi, or emulated in the terminal")
    run.add_argument("--config", metavar="FILE", help="configuration (TOML)")
    run.add_argument(
        "--screen",
        default="auto",
        metavar="WHERE",
        help="auto (the configured display; the terminal off the Pi), terminal, "
        "or a folder to write each screen as PNG",
    )
    run.add_argument("--state", metavar="DIR", help="where the game and settings are saved")
    run.add_argument("--dev", action="store_true", help="dev mode: random throws on the buttons")
    run.add_argument(
        "--source",
        metavar="SRC",
        help="read throws from a folder of images, a video file, a camera number or 'pi' "
        "(the empty tray first, unless calibrated with 'companion vision calibrate')",
    )
    run.set_defaults(handler=_run)
    add_vision_commands(commands)
    return parser


def _add_game_and_throw(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", metavar="GAME", help="rule set, see 'companion games'")
    parser.add_argument(
        "throw",
        metavar="THROW",
        help="what the implements show, or a score; '-': moves made instead of a throw",
    )


def _add_output_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--lang", choices=("fr", "en"), default="en", help="language of rulings")


def _add_rule_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a setting of the rule set for a new game, e.g. players=4 (repeatable)",
    )


def _rules(name: str, options: Sequence[str] = ()) -> RuleSet:
    rules = games.get(name)
    settings: dict[str, str] = {}
    for option in options:
        key, sep, value = option.partition("=")
        if not sep:
            raise NotationError(f"option {option!r}: write NAME=VALUE, e.g. players=4")
        settings[key.strip()] = value.strip()
    return rules.with_options(settings)


def _games(args: argparse.Namespace) -> int:
    entries = [{"name": name, "title": games.get(name).title} for name in games.names()]
    if args.json:
        _print_json(entries)
    else:
        width = max(len(entry["name"]) for entry in entries)
        for entry in entries:
            print(f"{entry['name']:<{width}}  {entry['title']}")
    return EXIT_OK


def _throw(args: argparse.Namespace) -> int:
    rules = games.get(args.game)
    throw = rules.parse_throw(args.faces)
    probability = rules.throws.probability(throw)
    record = rules.throw_record(throw)
    if args.json:
        _print_json(
            {
                "game": rules.name,
                "faces": args.faces.strip().upper(),
                **record,
                "probability": str(probability),
            }
        )
    else:
        consequence = rules.throw_consequence(throw)
        print(f"{throw_label(throw)}: {consequence} (probability {probability})")
    return EXIT_OK


NO_THROW = "-"  # THROW for the moves a player may make instead of throwing (Ur: pay-6)


def _game_with_throw(args: argparse.Namespace) -> tuple[AnyGame, Throw | None]:
    game = _rules(args.game, getattr(args, "option", ())).game(args.position)
    if args.throw.strip() != NO_THROW:
        return game, game.set_throw(args.throw)
    if game.position.throw is not None:
        raise NotationError(
            f"THROW '-' asks for moves made instead of a throw: the position must have no "
            f"throw pending ({game.fen()})"
        )
    return game, None


class _Listed(NamedTuple):
    move: Move
    effects: list[Ruling]
    position: str


def _moves(args: argparse.Namespace) -> int:
    game, throw = _game_with_throw(args)
    listed: list[_Listed] = []
    for move in game.legal_moves():
        effects = game.push(move)
        listed.append(_Listed(move, effects, game.fen()))
        game.pop()
    if args.json:
        _print_json(
            {
                "game": game.rules.name,
                "position": game.fen(),
                "throw": None if throw is None else game.rules.throw_record(throw),
                "to_move": game.turn_label("en"),
                "moves": [
                    {
                        "move": str(entry.move),
                        "does": [r.as_dict(args.lang) for r in entry.effects],
                        "position": entry.position,
                    }
                    for entry in listed
                ],
            }
        )
        return EXIT_OK
    if args.lang == "fr":
        what = "au lieu de lancer" if throw is None else f"un {throw}"
        print(f"{game.rules.name} : {game.turn_label('fr')} jouent {what}")
    else:
        what = "instead of throwing" if throw is None else f"a {throw}"
        print(f"{game.rules.name}: {game.turn_label('en')} to play {what}")
    print(f"position: {game.fen()}")
    for entry in listed:
        does = "; ".join(r.short(args.lang) for r in entry.effects if r.rule.key != PLAIN_MOVE)
        print(f"  {entry.move!s:<8} {does}")
        print(f"  {'':<8} -> {entry.position}")
    return EXIT_OK


def _check(args: argparse.Namespace) -> int:
    game, throw = _game_with_throw(args)
    move = Move.parse(args.move)
    explanation = game.explain(move)
    if args.json:
        record = explanation.as_dict(args.lang)
        record.update(
            {
                "game": game.rules.name,
                "position": game.fen(),
                "throw": None if throw is None else game.rules.throw_record(throw)["score"],
            }
        )
        _print_json(record)
    else:
        verdict = "legal" if explanation.legal else "illegal"
        if args.lang == "fr":
            verdict = "permis" if explanation.legal else "interdit"
        ruling = explanation.deciding
        print(f"{move}: {verdict} [{ruling.rule.id}] {ruling.short(args.lang)}")
        for extra in explanation.rulings:
            print(f"  {extra.rule.id}: {extra.long(args.lang)}")
            print(f"      ({extra.source(args.lang)})")
    return EXIT_OK if explanation.legal else EXIT_ILLEGAL


def _play(args: argparse.Namespace) -> int:
    rules = _rules(args.game, args.option)
    return run_session(
        rules,
        new=args.new,
        save=args.save,
        lang=args.lang,
        seed=args.seed,
        sphinx=args.sphinx,
        level=args.level,
    )


def _stats(args: argparse.Namespace) -> int:
    from companion.statsreport import report

    rules = games.get(args.game)
    if args.log:
        return report(rules, logs=[Path(log) for log in args.log], as_json=args.json)
    from companion import throwlog
    from companion.device.state import device_throw_logs

    return report(rules, logs=[throwlog.default_path(), *device_throw_logs()], as_json=args.json)


def _demo(args: argparse.Namespace) -> int:
    if args.text:
        from companion.demo import run_demo

        return run_demo(args.game, seed=args.seed, lang=args.lang)
    games.get(args.game)  # an unknown name is reported before anything is imported
    try:
        from companion.device.demo import run_device_demo
    except ImportError as error:
        raise DeviceMissingError(error) from None
    return run_device_demo(args.game, seed=args.seed, lang=args.lang, out=Path(args.out))


def _run(args: argparse.Namespace) -> int:
    try:
        from companion.device.run import RunOptions, run_device
    except ImportError as error:
        raise DeviceMissingError(error) from None
    options = RunOptions(
        config_path=Path(args.config) if args.config else None,
        screen=args.screen,
        state_dir=Path(args.state) if args.state else None,
        dev_mode=args.dev,
        source=args.source,
    )
    return run_device(options)


class DeviceMissingError(CompanionError, ImportError):
    def __init__(self, error: ImportError) -> None:
        super().__init__(
            f"the device needs its libraries ({error.name or error}): "
            "pip install 'companion[device]'; 'companion demo --text' needs none"
        )


def _print_json(data: object) -> None:
    json.dump(data, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")


if __name__ == "__main__":
    sys.exit(main())
