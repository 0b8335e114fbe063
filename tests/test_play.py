"""``companion play``: scripted sessions, saving after every action, resuming, bad saves."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from game_helpers import TypedLines

from companion import games, savefile
from companion.errors import NotationError, SaveFileError
from companion.play import run_session


def play(
    path: Path, lines: list[str], *, game: str = "senet-kendall", new: bool = False
) -> TypedLines:
    table = TypedLines(lines)
    status = run_session(game, new=new, save=str(path), ask=table.ask, say=table.say)
    assert status == 0
    return table


def test_opening_then_moves_are_saved_after_every_action(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    table = play(path, ["2", "1", "1", "1", "MMPP", "11-13"])
    assert "No 1: next player throws." in table.text
    saved = json.loads(path.read_text())
    assert saved["actions"] == [
        "throw 2",
        "move pass",
        "throw 1",
        "move 10-11",
        "throw 2",
        "move 11-13",
    ]
    assert saved["position"] == "WBWBWBWBW./..B......./.......... w - first 0/0"


def test_resume_continues_where_the_players_stopped(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    play(path, ["1", "1", "3"])
    table = play(path, ["position", "undo", "position"])
    assert "Resumed the saved game" in table.text
    assert "b 3 first" in table.text  # the pending throw survived the restart
    assert table.said[-1].strip().endswith("b - first 0/0")  # and undo still works


def test_why_names_the_rule_and_its_source(tmp_path: Path) -> None:
    table = play(tmp_path / "g.json", ["1", "1", "2", "why 2-4"])
    assert "2-4: not allowed" in table.text
    assert "rule G2" in table.text


def test_mistakes_get_a_message_and_the_session_goes_on(tmp_path: Path) -> None:
    table = play(tmp_path / "g.json", ["XYZ", "7", "1", "1", "3", "1-9", "position"])
    assert "expected 4 letters" in table.text
    assert "scores only" in table.text
    assert "1-9 is not allowed" in table.text
    assert table.said[-1].strip().endswith("b 3 first 0/0")


def test_a_corrupt_save_is_kept_aside_and_a_new_game_starts(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text("{ not json")
    table = play(path, ["position"])
    assert "cannot be read" in table.text
    kept = list(tmp_path.glob("game.json.unreadable-*"))
    assert len(kept) == 1 and kept[0].read_text() == "{ not json"


def test_a_save_that_does_not_replay_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    game = games.get("senet-migo").game()
    savefile.save(game, path, game.fen())
    record = json.loads(path.read_text())
    record["actions"] = ["throw 1", "move 3-4"]
    path.write_text(json.dumps(record))
    with pytest.raises(SaveFileError, match="does not replay"):
        savefile.load(path)


def test_saving_leaves_no_temporary_files(tmp_path: Path) -> None:
    play(tmp_path / "game.json", ["1", "1", "2"])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json", "throws.jsonl"]


def test_a_save_that_cannot_be_written_is_reported_and_play_goes_on(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    table = play(blocker / "game.json", ["1", "1", "position"])
    assert "could not be saved" in table.text
    assert table.said[-1].strip().endswith("b - first 0/0")


def test_typed_throws_are_logged_for_statistics_and_random_ones_are_not(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    play(save, ["PMPP", "1", "r"])  # Kendall's opening 1, its move, then a random throw
    log = tmp_path / "throws.jsonl"
    lines = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert [(line["game"], line["score"], line["source"]) for line in lines] == [
        ("senet-kendall", 1, "typed")
    ]


def test_hint_names_the_best_moves_with_their_value(tmp_path: Path) -> None:
    table = play(tmp_path / "game.json", ["hint", "PMPP", "1", "MMPP", "hint"])
    assert "throw first" in table.text
    hints = [line for line in table.said if "expected" in line]
    assert 1 <= len(hints) <= 3


def sphinx_game(
    path: Path, lines: list[str], *, game: str = "senet-kendall", sides: tuple[int, ...] = (2,)
) -> TypedLines:
    table = TypedLines(lines)
    status = run_session(
        game, save=str(path), ask=table.ask, say=table.say, sphinx=sides, seed=1, level="easy"
    )
    assert status == 0
    return table


def test_the_sphinx_names_its_move_and_plays_it_once_the_people_made_it(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    # Kendall's opening: player 1 throws a 1 and takes black (K3), so the Sphinx (side 2)
    # is black and throws again; its 2 has two moves, it names one; Enter confirms.
    table = sphinx_game(path, ["PMPP", "1", "MMPP", "board", ""])
    named = [line for line in table.said if line.strip().startswith("The Sphinx plays")]
    assert len(named) == 1  # said once, though 'board' was typed before Enter
    move = named[0].split()[3].rstrip(".:")
    assert move in ("8-10", "11-13")  # the two moves a 2 allows black there
    saved = json.loads(path.read_text())
    assert saved["actions"][-1] == f"move {move}"
    assert "Throw for the Sphinx" in table.text
    assert "[black, Sphinx]" in table.text


def test_without_enter_the_sphinx_move_is_not_played(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    table = sphinx_game(path, ["PMPP", "1", "MMPP", "undo"])
    assert "The Sphinx plays" in table.text
    assert json.loads(path.read_text())["actions"][-1] == "move 10-11"  # its throw undone


def test_the_sphinx_passes_when_it_has_no_move(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    blocked = "BBBWWW..../........../.......... b - play 2/2"  # a 2 moves no black piece
    savefile.save(games.get("senet-kendall").game(blocked), path, blocked)
    table = sphinx_game(path, ["MMPP", ""])
    assert "The Sphinx cannot move" in table.text
    assert json.loads(path.read_text())["actions"] == ["throw 2", "move pass"]


def test_the_sphinx_chooses_how_to_throw_where_the_rules_offer_a_choice(tmp_path: Path) -> None:
    table = sphinx_game(tmp_path / "game.json", [], game="ur-tablet", sides=(1,))
    assert "Throw for the Sphinx (die" in table.text or "instead of throwing" in table.text


@pytest.mark.parametrize(
    ("sides", "message"),
    [((3,), "has sides 1 to 2"), ((1, 2), "cannot play every side"), ((0,), "sides 1 to 2")],
)
def test_impossible_sphinx_sides_are_refused(
    tmp_path: Path, sides: tuple[int, ...], message: str
) -> None:
    with pytest.raises(NotationError, match=message):
        sphinx_game(tmp_path / "game.json", [], sides=sides)


def test_a_resumed_game_keeps_its_players_for_the_sphinx(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    four = games.get("mehen").with_options({"players": "4"})
    started = four.game()
    savefile.save(started, path, started.fen())
    table = sphinx_game(path, [], game="mehen", sides=(4,))  # side 4 of the saved game
    assert "Resumed" in table.text


def test_a_move_of_the_sphinx_that_cannot_be_saved_is_a_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    saves: list[object] = []
    real_save = savefile.save

    def disk_full_at_the_sphinx_move(*args: object, **kwargs: object) -> None:
        saves.append(args)
        if len(saves) >= 4:  # a throw, a move, the Sphinx's throw saved; then its move
            raise SaveFileError("the disk is full")
        real_save(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(savefile, "save", disk_full_at_the_sphinx_move)
    table = sphinx_game(tmp_path / "game.json", ["PMPP", "1", "MMPP", ""])
    assert "the disk is full" in table.text
