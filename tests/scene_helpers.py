"""Generated scenes for the suite, each drawn once per test process."""

from __future__ import annotations

import copy
from collections import OrderedDict
from collections.abc import Callable
from enum import Enum
from typing import Any

from vision import synthetic

DRAWN_KEPT = 32  # scenes kept, the latest used: about 200 MB of pictures


def drawn_once(
    draw: Callable[..., synthetic.SyntheticScene], kept: int = DRAWN_KEPT
) -> Callable[..., synthetic.SyntheticScene]:
    """``draw`` (``vision.synthetic.scene``) with the ``kept`` scenes last asked for kept,
    each handed out as a copy a test may draw on. A third of the suite's scenes are ones
    another test drew already, and drawing one (two frames of noise) costs more than
    reading it."""
    scenes: OrderedDict[str, synthetic.SyntheticScene] = OrderedDict()

    def scene(*args: Any, **options: Any) -> synthetic.SyntheticScene:
        if not all(map(_plain, (*args, *options.values()))):
            return draw(*args, **options)  # told apart by more than its text, say an array
        key = repr((args, sorted(options.items())))
        if key in scenes:
            scenes.move_to_end(key)
        else:
            scenes[key] = draw(*args, **options)
            if len(scenes) > kept:
                scenes.popitem(last=False)
        made = scenes[key]
        return synthetic.SyntheticScene(
            made.frame.copy(), made.empty.copy(), copy.deepcopy(made.label)
        )

    return scene


def _plain(value: object) -> bool:
    """Whether ``value`` is told apart from any other by its ``repr``: numbers, text,
    None, enum members and tuples of them."""
    if isinstance(value, tuple):
        return all(map(_plain, value))
    return value is None or isinstance(value, (int, float, str, Enum))
