"""Shared pieces of the device tests: an App in a temporary state folder."""

from __future__ import annotations

import random
from pathlib import Path

from companion.device.app import App, DeviceInfo
from companion.device.state import Settings, StateStore


def make_app(
    folder: Path,
    *,
    game: str = "senet-kendall",
    lang: str = "en",
    dev_mode: bool = False,
    saver_after: float = 300.0,
    seed: int = 1,
    options: tuple[tuple[str, int], ...] = (),
    seats: tuple[str, ...] = (),
) -> App:
    settings = Settings(game=game, lang=lang, dev_mode=dev_mode, options=options, seats=seats)
    return App(
        StateStore(folder),
        settings=settings,
        info=DeviceInfo(camera=True, saver_after=saver_after),
        rng=random.Random(seed),
    )
