"""The renderer: golden images of the screens, purity, fonts that cover every text.

After a deliberate change of the screens, regenerate the golden images with
``.venv/bin/python -m companion.device.gallery tests/golden``, look at them, and commit.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from companion import games
from companion.device import gallery, texts
from companion.device.font import BOLD, SMALL, plain_text
from companion.device.render import HEIGHT, WIDTH, render, wrap
from companion.device.view import MessageScreen

GOLDEN = Path(__file__).parent / "golden"
VIEWS = gallery.views()


@pytest.mark.parametrize("name", sorted(VIEWS))
def test_screen_matches_its_golden_image(name: str, tmp_path: Path) -> None:
    image = render(VIEWS[name])
    golden = Image.open(GOLDEN / f"{name}.png").convert("1")
    if image.tobytes() != golden.tobytes():
        image.save(tmp_path / f"{name}.png")
        pytest.fail(
            f"screen {name!r} differs from tests/golden/{name}.png (new image: "
            f"{tmp_path / name}.png); if the change is wanted: "
            "python -m companion.device.gallery tests/golden"
        )


def test_every_golden_image_has_a_screen() -> None:
    assert {path.stem for path in GOLDEN.glob("*.png")} == set(VIEWS)


def test_rendering_is_pure_and_one_bit() -> None:
    view = VIEWS["moves"]
    first, second = render(view), render(view)
    assert first.mode == "1" and first.size == (WIDTH, HEIGHT)
    assert first.tobytes() == second.tobytes()


def _all_texts() -> list[str]:
    found = []
    for name in games.names():
        for rule in games.get(name).rules.values():
            for lang in texts.LANGUAGES:
                found += [rule.short[lang], *rule.short_allowed.values()]
    for key in texts._TEXTS:
        found += list(texts._TEXTS[key])
    return found


@pytest.mark.parametrize("font", [SMALL, BOLD], ids=lambda f: f.name)
def test_fonts_have_every_character_of_the_texts(font: object) -> None:
    assert font is SMALL or font is BOLD
    missing = {ch for text in _all_texts() for ch in plain_text(text) if ch not in font.glyphs}
    assert not missing


def test_wrapped_lines_fit_the_screen() -> None:
    for text in _all_texts():
        for line in wrap(text):
            assert SMALL.width(line) <= WIDTH - 2, line


def test_a_long_message_is_cut_with_an_ellipsis_not_drawn_off_screen() -> None:
    image = render(MessageScreen("Title", ("word " * 200,), footer="OK"))
    assert image.size == (WIDTH, HEIGHT)
