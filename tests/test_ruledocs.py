"""The rule pages in docs/rules/ are generated from the rule data and stay in step with it."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from companion import games, ruledocs
from companion.errors import NotationError
from companion.rules import SHORT_TEXT_LIMIT, Rule

DECISIONS = Path(__file__).resolve().parents[2] / "shared" / "rules" / "DECISIONS.md"

# The ids DECISIONS.md lists for each rule set, for when ../shared is not there.
EXPECTED_IDS: dict[str, list[str]] = {
    "senet-migo": [f"S{n}" for n in range(1, 12)],
    "senet-kendall": [f"K{n}" for n in range(1, 9)],
    "ur-tablet": [f"U{n}" for n in range(1, 12)],
}

SAMPLE = "88"  # a 2-digit value for every placeholder of a short text


def decision_ids(name: str) -> list[str]:
    """The ids listed under ``## name`` in DECISIONS.md, or the hard-coded list without it."""
    if not DECISIONS.is_file():
        return EXPECTED_IDS[name]
    ids: list[str] = []
    in_section = False
    for line in DECISIONS.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            in_section = line[3:].split()[0] == name
            continue
        match = re.match(r"- ([A-Z]\d+) ", line)
        if in_section and match:
            ids.append(match.group(1))
    return ids


def page(name: str) -> str:
    return ruledocs.page_path(name).read_text(encoding="utf-8")


def placeholders(template: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(template) if field}


def short_texts(rule: Rule) -> list[str]:
    return [text for texts in (rule.short, rule.short_allowed) for text in texts.values() if text]


@pytest.mark.parametrize("name", games.names())
def test_page_is_up_to_date(name: str) -> None:
    path = ruledocs.page_path(name)
    assert path.is_file(), f"{path} is missing: run python -m companion.ruledocs"
    assert page(name) == ruledocs.render(games.get(name)), (
        f"{path} is stale: run python -m companion.ruledocs"
    )


def test_check_reports_nothing_stale() -> None:
    assert ruledocs.main(["--check"]) == 0


def test_check_names_a_stale_page(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ruledocs.main(["--out", str(tmp_path)])
    stale = ruledocs.page_path(games.names()[0], tmp_path)
    stale.write_text("old\n", encoding="utf-8")
    assert ruledocs.main(["--check", "--out", str(tmp_path)]) == 1
    assert stale.read_text(encoding="utf-8") == "old\n"  # --check writes nothing
    assert str(stale) in capsys.readouterr().err


@pytest.mark.parametrize("name", games.names())
def test_every_rule_has_its_anchor(name: str) -> None:
    text = page(name)
    for rule in games.get(name).rules.values():
        assert f'<a id="{ruledocs.anchor(rule)}"></a>' in text, rule.key


@pytest.mark.parametrize("name", sorted(EXPECTED_IDS))
def test_every_decision_id_is_on_the_page(name: str) -> None:
    ids = decision_ids(name)
    assert ids, f"no ids found for {name}"
    text = page(name)
    missing = [rule_id for rule_id in ids if f"### {rule_id}\n" not in text]
    assert not missing, f"{name}: no rule for {', '.join(missing)}"


def test_decision_ids_match_the_hard_coded_lists() -> None:
    if not DECISIONS.is_file():
        pytest.skip("../shared/rules/DECISIONS.md is not present")
    for name, expected in EXPECTED_IDS.items():
        assert decision_ids(name) == expected


def test_rules_are_grouped_in_id_order() -> None:
    ids = [rule_id for rule_id, _ in ruledocs.grouped(games.get("senet-migo").rules.values())]
    assert ids.index("S2") < ids.index("S10") < ids.index("S11")


@pytest.mark.parametrize("name", games.names())
def test_short_texts_fit_the_screen(name: str) -> None:
    for rule in games.get(name).rules.values():
        for template in short_texts(rule):
            text = template.format(**dict.fromkeys(placeholders(template), SAMPLE))
            assert len(text) <= SHORT_TEXT_LIMIT, f"{rule.key}: {text!r} ({len(text)})"


NOTATION = Path(__file__).resolve().parents[1] / "docs" / "notation.md"
POSITION = re.compile(r"[WB.]{10}/[WB.]{10}/[WB.]{10} \S+ \S+ \S+ \d+/\d+")


@pytest.mark.parametrize("name", games.names())
def test_notation_shows_the_starting_position(name: str) -> None:
    assert games.get(name).game().fen() in NOTATION.read_text(encoding="utf-8")


def test_notation_examples_are_valid_positions() -> None:
    examples = POSITION.findall(NOTATION.read_text(encoding="utf-8"))
    assert examples
    for example in examples:
        readers = [name for name in games.names() if _reads(name, example)]
        assert readers, f"docs/notation.md: {example!r} is no valid position"


def _reads(name: str, position: str) -> bool:
    try:
        games.get(name).game(position)
    except NotationError:
        return False
    return True
