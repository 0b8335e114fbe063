"""The new-game screen's lines: the rule set, its options, the language, who starts and
who sits at each seat (a person or the Sphinx at a level), then "start".

Each line has a label and a change: selecting the line cycles its value in a draft of the
settings; the last line's change returns None, which starts the game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from companion import games
from companion.device import texts
from companion.device.state import SEAT_KINDS, Settings
from companion.errors import CompanionError
from companion.games.senet import Phase

Change = Callable[[Settings], Settings | None]

# The values offered for each option, tried in order (those the rule set refuses are
# skipped). Mehen's boards: the 88 squares of the known boards, and shorter or longer.
OPTION_VALUES: dict[str, tuple[int, ...]] = {
    "players": (2, 3, 4, 5, 6),
    "length": (30, 40, 60, 88, 100, 120),
    "layout": (1, 2),
}


def items(
    draft: Settings, lang: str, *, next_language: Callable[[], None]
) -> list[tuple[str, Change]]:
    def t(key: str, **values: object) -> str:
        return texts.text(key, lang, **values)

    rules = draft.rules()
    lines: list[tuple[str, Change]] = [(t("rules", game=rules.name), next_rule_set)]
    for name in rules.options:
        value = getattr(rules, name)
        lines.append((option_label(name, value, lang), _option_changer(name)))

    def language(current: Settings) -> Settings:
        next_language()
        return current

    lines.append((t("language", name=texts.LANGUAGE_NAMES[lang]), language))
    starts = "throws-first" if _has_opening(draft) else "starts"
    lines.append((t(starts, seat=draft.first + 1), next_first))
    for seat in range(rules.players):
        who = seat_name(draft.seat(seat), lang)
        lines.append((t("seat", number=seat + 1, who=who), _seat_changer(seat)))
    lines.append((t("start-game"), lambda current: None))
    return lines


def seat_name(kind: str, lang: str) -> str:
    if kind == SEAT_KINDS[0]:
        return texts.text("person", lang)
    return texts.text("sphinx-level", lang, level=texts.text(f"level-{kind}", lang))


def option_label(name: str, value: int, lang: str) -> str:
    key = f"option-{name}"
    if texts.has(key):
        return texts.text(key, lang, value=value)
    return f"{name}: {value}"


def next_rule_set(draft: Settings) -> Settings:
    names = games.names()
    following = names[(names.index(draft.game) + 1) % len(names)]
    return _fitted(replace(draft, game=following, options=()))


def next_first(draft: Settings) -> Settings:
    return replace(draft, first=(draft.first + 1) % draft.rules().players)


def _option_changer(name: str) -> Change:
    def change(draft: Settings) -> Settings:
        current = getattr(draft.rules(), name)
        values = [value for value in OPTION_VALUES.get(name, ()) if _accepts(draft, name, value)]
        if not values:
            return draft
        following = next((value for value in values if value > current), values[0])
        kept = [(n, v) for n, v in draft.options if n != name]
        options = (*kept, (name, following))
        return _fitted(replace(draft, options=options))

    return change


def _seat_changer(seat: int) -> Change:
    def change(draft: Settings) -> Settings:
        players = draft.rules().players
        seats = [draft.seat(index) for index in range(players)]
        seats[seat] = SEAT_KINDS[(SEAT_KINDS.index(seats[seat]) + 1) % len(SEAT_KINDS)]
        return replace(draft, seats=tuple(seats))

    return change


def _accepts(draft: Settings, name: str, value: int) -> bool:
    options = {n: str(v) for n, v in draft.options if n != name} | {name: str(value)}
    try:
        games.get(draft.game).with_options(options)
    except CompanionError:
        return False
    return True


def _fitted(draft: Settings) -> Settings:
    """Seats and the first seat cut to the rule set's number of players."""
    players = draft.rules().players
    seats = tuple(draft.seat(index) for index in range(players))
    return replace(draft, seats=seats, first=draft.first if draft.first < players else 0)


def _has_opening(draft: Settings) -> bool:
    position = draft.rules().game().position
    return getattr(position, "phase", None) is Phase.OPENING
