"""The documentation of a rule set, rendered from its data.

``render(rules)`` turns a rule set into a Markdown page: its title and source, the throw
table, the parameters and every rule with its id, basis, citation, quotation and texts.
``python -m companion.ruledocs`` writes ``docs/rules/<name>.md`` for every registered
rule set; with ``--check`` it writes nothing and exits 1 if any page is stale, so the
pages can never drift from the rules the engine applies.
"""

from __future__ import annotations

import argparse
import dataclasses
import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from companion import games
from companion.core import OFF, RuleSet
from companion.rules import LANGUAGES, Basis, Rule

DOCS_DIR = Path(__file__).resolve().parent.parent / "docs" / "rules"

# Fields of a rule set that are not parameters: the page shows them elsewhere.
_NOT_PARAMETERS = frozenset({"name", "title", "rules", "throws", "source"})

# What each parameter means, for the parameter table; unknown parameters get no note.
PARAMETER_NOTES: Mapping[str, str] = {
    "players": "number of players",
    "pieces": "pieces per side",
    "opener": "colour taken by the first player to throw a 1 (0 white, 1 black)",
    "opening_move": "the move (start, end) played by that first 1; none: it moves nothing",
    "first_move_square": "white's first move starts from this square while a piece there can move",
    "refuges": "squares where a piece cannot be attacked",
    "water": "square that sends a piece back to square 1, or the first free square after it",
    "exact_square": "no piece moves past this square without stopping on it",
    "exits": "from these squares these throws go to these squares; any other throw: the water",
    "home_row": "bearing off only while every piece on the board stands on this square or past it",
    "backward_from_refuges": "whether a piece on the refuges (26-30) may move backward",
    "protection": "adjacent pieces of a colour that protect each other",
    "wall": "adjacent pieces of a colour that form a wall",
}

_PLACEHOLDER = re.compile(r"\{(\w+)\}")
_RULE_ID = re.compile(r"([A-Za-z]+)(\d+)")


def anchor(rule: Rule) -> str:
    """The HTML anchor of a rule on its page: the id and the key, e.g. ``s4-wall``."""
    return f"{rule.id.lower()}-{rule.key}"


def id_order(rule_id: str) -> tuple[str, int, str]:
    """Sort key for rule ids: by letter, then by number (S2 before S10)."""
    match = _RULE_ID.fullmatch(rule_id)
    if match is None:
        return (rule_id, 0, rule_id)
    return (match.group(1), int(match.group(2)), rule_id)


def grouped(rules: Iterable[Rule]) -> list[tuple[str, list[Rule]]]:
    """Rules grouped by id, in id order; inside a group, in rule book order."""
    groups: dict[str, list[Rule]] = {}
    for rule in rules:
        groups.setdefault(rule.id, []).append(rule)
    return [(rule_id, groups[rule_id]) for rule_id in sorted(groups, key=id_order)]


def render(rules: RuleSet) -> str:
    """The Markdown page of one rule set."""
    lines: list[str] = [
        f"# {rules.title}",
        "",
        f"Rule set `{rules.name}`. This page is generated from the rule data by "
        "`python -m companion.ruledocs`; do not edit it by hand.",
        "",
    ]
    source = rules.source
    if source:
        lines += [
            f"Source text (French): `seeds/{source}`. Rule ids are those of "
            "`rules/DECISIONS.md`; G1 and G2 are source rules the decisions take for granted. "
            "Positions, moves and throws are written as in [the notation](../notation.md).",
            "",
        ]
    lines += _throw_table(rules)
    lines += _parameters(rules)
    lines += _rules(rules)
    return "\n".join(lines).rstrip("\n") + "\n"


def _throw_table(rules: RuleSet) -> list[str]:
    table = rules.throws
    lines = [
        "## Throws",
        "",
        table.describe(),
        "",
        "| Implements show | Score | Then | Probability |",
        "|---|---:|---|---:|",
    ]
    for outcome in table.outcomes():
        then = rules.throw_consequence(outcome.throw)
        score = ", ".join(str(value) for value in outcome.throw.dice) or outcome.throw.score
        lines.append(f"| `{outcome.shown}` | {score} | {then} | {outcome.probability} |")
    return [*lines, ""]


def _parameters(rules: RuleSet) -> list[str]:
    lines = [
        "## Parameters",
        "",
        "House rules change these values (`dataclasses.replace(rules, ...)`).",
        "",
        "| Parameter | Value | Meaning |",
        "|---|---|---|",
    ]
    for field in dataclasses.fields(rules):
        if field.name in _NOT_PARAMETERS:
            continue
        value = _format_value(getattr(rules, field.name))
        note = rules.parameter_notes.get(field.name) or PARAMETER_NOTES.get(field.name, "")
        lines.append(f"| `{field.name}` | {_inline(value)} | {_inline(note)} |")
    return [*lines, ""]


def _format_value(value: object) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, frozenset | set):
        return ", ".join(_format_value(item) for item in sorted(value))
    if isinstance(value, tuple):
        return ", ".join(_format_value(item) for item in value)
    if isinstance(value, Mapping):
        if not value:
            return "none"
        parts = []
        for key, item in value.items():
            if isinstance(item, Mapping):
                inner = ", ".join(f"{k} → {_square_name(v)}" for k, v in item.items())
                parts.append(f"from {key}: {inner}")
            else:
                parts.append(f"{key}: {_format_value(item)}")
        return "; ".join(parts)
    return str(value)


def _square_name(value: object) -> str:
    return "off" if value == OFF else str(value)


def _rules(rules: RuleSet) -> list[str]:
    groups = grouped(rules.rules.values())
    lines = [
        "## Rules",
        "",
        "Each rule says whether it is the source text or our interpretation (a decision of "
        "`DECISIONS.md`). Texts in braces, such as `{square}`, are placeholders that a "
        "ruling fills with its details (a square, a throw, a move).",
        "",
        "| Id | Rules |",
        "|---|---|",
    ]
    for rule_id, members in groups:
        links = ", ".join(f"[{rule.key}](#{anchor(rule)})" for rule in members)
        lines.append(f"| {rule_id} | {links} |")
    lines.append("")
    for rule_id, members in groups:
        lines += [f"### {rule_id}", ""]
        for rule in members:
            lines += _rule(rule)
    return lines


def _rule(rule: Rule) -> list[str]:
    basis = "Source text" if rule.basis is Basis.SOURCE else "Our interpretation"
    lines = [
        f'<a id="{anchor(rule)}"></a>',
        "",
        f"#### `{rule.key}` ({rule.id})",
        "",
        f"- Basis: {basis}",
        f"- Citation: {_inline(rule.citation)}",
    ]
    if rule.decision and rule.decision != rule.id:
        lines.append(f"- Decision: {rule.decision} (`DECISIONS.md`)")
    if rule.quote:
        lines.append(f"- Quotation (fr): « {_inline(rule.quote)} »")
    lines += _texts("Short", rule.short)
    lines += _texts("Long", rule.long)
    lines += _texts("Short, when allowed", rule.short_allowed)
    lines += _texts("Long, when allowed", rule.long_allowed)
    return [*lines, ""]


def _texts(label: str, texts: Mapping[str, str]) -> list[str]:
    present = [lang for lang in LANGUAGES if texts.get(lang)]
    return [f"- {label} ({lang}): {_template(texts[lang])}" for lang in present]


def _template(text: str) -> str:
    """A text template with its placeholders shown as written, in code spans."""
    return _PLACEHOLDER.sub(lambda match: f"`{match.group(0)}`", _inline(text))


def _inline(text: str) -> str:
    """Text safe inside a Markdown list item or table cell."""
    return " ".join(text.split()).replace("|", "\\|")


def page_path(name: str, directory: Path = DOCS_DIR) -> Path:
    return directory / f"{name}.md"


def stale_pages(directory: Path = DOCS_DIR) -> list[Path]:
    """Pages that are missing or differ from what the rule data renders."""
    stale = []
    for name in games.names():
        path = page_path(name, directory)
        expected = render(games.get(name))
        if not path.is_file() or path.read_text(encoding="utf-8") != expected:
            stale.append(path)
    return stale


def write_pages(directory: Path = DOCS_DIR) -> list[Path]:
    """Write the page of every registered rule set; returns the pages written."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name in games.names():
        path = page_path(name, directory)
        path.write_text(render(games.get(name)), encoding="utf-8", newline="\n")
        written.append(path)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m companion.ruledocs",
        description="Write docs/rules/<name>.md for every registered rule set.",
    )
    parser.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 if any page is stale"
    )
    parser.add_argument("--out", type=Path, default=DOCS_DIR, help=f"default: {DOCS_DIR}")
    args = parser.parse_args(argv)
    directory: Path = args.out
    if args.check:
        stale = stale_pages(directory)
        for path in stale:
            print(f"stale: {path} (run python -m companion.ruledocs)", file=sys.stderr)
        return 1 if stale else 0
    for path in write_pages(directory):
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
