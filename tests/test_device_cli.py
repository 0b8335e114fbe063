"""``companion demo`` through the screens and ``companion run`` with keys as buttons."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from companion.cli import EXIT_BAD_INPUT, EXIT_OK, main


@pytest.mark.usefixtures("no_fsync")
def test_demo_writes_a_gif_and_a_transcript(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Senet-Modern's two dice: a short game (seed 18), read from pictures by the camera path.
    status = main(["demo", "--game", "senet-modern", "--seed", "18", "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert status == EXIT_OK
    transcript = (tmp_path / "demo.txt").read_text()
    assert "camera reads" in transcript and "[Game over]" in transcript
    assert "(hand); camera refuses: a hand is over the tray" in transcript
    assert "Why?" in transcript
    assert len(list((tmp_path / "camera").glob("*.jpg"))) > 5
    with Image.open(tmp_path / "demo.gif") as gif:
        assert getattr(gif, "n_frames", 1) > 20
    assert "demo.gif" in out


def test_demo_without_the_camera_path_uses_fake_readings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("companion.device.demo.camera_reads", lambda rules: False)  # no OpenCV
    status = main(["demo", "--game", "ur-finkel", "--seed", "2", "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert status == EXIT_OK
    assert "the camera path cannot read these throws here" in out
    transcript = (tmp_path / "demo.txt").read_text()
    assert "[Game over]" in transcript and "camera pictures" not in transcript


@pytest.mark.usefixtures("no_fsync")
def test_run_with_keys_writes_screens(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    keys = "\n" + "\n" + "s\n" + "q"  # new game, throw by hand, next move choice...
    monkeypatch.setattr("sys.stdin", io.StringIO(keys))
    screens, state = tmp_path / "screens", tmp_path / "state"
    config = tmp_path / "config.toml"
    config.write_text('[display]\ndriver = "terminal"\n')
    status = main(["run", "--config", str(config), "--screen", str(screens), "--state", str(state)])
    assert status == EXIT_OK
    assert len(list(screens.glob("screen-*.png"))) >= 4
    assert (state / "game.json").exists()


def test_run_reports_a_bad_configuration(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[buttons]\nselect = 99\n")
    status = main(["run", "--config", str(config), "--screen", str(tmp_path)])
    assert status == EXIT_BAD_INPUT
    assert "buttons.select = 99" in capsys.readouterr().err
