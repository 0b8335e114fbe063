"""Rules, rulings and explanations.

A :class:`Rule` is data: the id players cite (``S4``), whether it is the source text or
one of our interpretations (a decision of ``DECISIONS.md``), the citation, and short and
long texts in French and English. A :class:`Ruling` is what a rule function returns for
one concrete move: the rule, its verdict and the details that fill the texts. Legal move
generation and :meth:`explain` run the very same rule functions, so the explanation a
player reads is the reason the engine decided.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from companion.core import Move

LANGUAGES = ("fr", "en")
SHORT_TEXT_LIMIT = 64  # characters: four lines of a 128x64 screen in a small font


class Basis(Enum):
    """Where a rule comes from."""

    SOURCE = "source"  # the source text says so
    DECISION = "decision"  # the source is silent or ambiguous: our reading, in DECISIONS.md

    def label(self, lang: str) -> str:
        if self is Basis.SOURCE:
            return "texte source" if lang == "fr" else "source text"
        return "notre interprétation" if lang == "fr" else "our interpretation"


class Verdict(Enum):
    """What a ruling does to a move."""

    FORBIDS = "forbids"
    ALLOWS = "allows"
    EFFECT = "effect"  # the move is legal and this rule changes what it does


# For the hot paths: CPython 3.11 reads a global at full speed, not an enum's member.
_FORBIDS, _ALLOWS, _EFFECT = Verdict.FORBIDS, Verdict.ALLOWS, Verdict.EFFECT
_new = object.__new__  # builds frozen values without their __init__ (hot paths)


@dataclass(frozen=True)
class Rule:
    """One rule of a rule set, as data.

    ``key`` is unique inside a rule set and names the rule function's concern
    (``wall``); ``id`` is what a player cites (``S4``, or ``K4`` in another rule set).
    Texts are ``str.format`` templates filled with a ruling's details.
    """

    key: str
    id: str
    basis: Basis
    citation: str
    short: Mapping[str, str]
    long: Mapping[str, str]
    quote: str = ""
    decision: str = ""  # the DECISIONS.md id, when the rule depends on one
    # Texts for a ruling that allows, where they differ from the forbidding ones.
    short_allowed: Mapping[str, str] = field(default_factory=dict)
    long_allowed: Mapping[str, str] = field(default_factory=dict)

    def texts(self, verdict: Verdict) -> tuple[Mapping[str, str], Mapping[str, str]]:
        """The (short, long) templates for a ruling of this verdict."""
        if verdict is Verdict.ALLOWS and self.short_allowed:
            return self.short_allowed, self.long_allowed
        return self.short, self.long

    def __post_init__(self) -> None:
        for texts in (self.short, self.long):
            missing = [lang for lang in LANGUAGES if lang not in texts]
            if missing:
                raise ValueError(f"rule {self.key}: no text in {', '.join(missing)}")
        if bool(self.short_allowed) != bool(self.long_allowed):
            raise ValueError(f"rule {self.key}: allowed texts need both a short and a long one")


@dataclass(frozen=True)
class Ruling:
    """A rule applied to one move: forbids it, allows it, or changes what it does."""

    rule: Rule
    verdict: Verdict
    details: Mapping[str, object] = field(default_factory=dict)

    @property
    def forbids(self) -> bool:
        return self.verdict is Verdict.FORBIDS

    @property
    def is_ours(self) -> bool:
        return self.rule.basis is Basis.DECISION

    def short(self, lang: str = "en") -> str:
        """One sentence for the 128x64 screen."""
        return self.rule.texts(self.verdict)[0][_language(lang)].format(**self.details)

    def long(self, lang: str = "en") -> str:
        """The full sentence, for the docs, logs and the command line."""
        return self.rule.texts(self.verdict)[1][_language(lang)].format(**self.details)

    def source(self, lang: str = "en") -> str:
        """Where the rule comes from: the citation, and the decision id when it is ours."""
        rule = self.rule
        text = f"{rule.citation} ({rule.basis.label(lang)})"
        if rule.decision and rule.decision != rule.id:
            text += f"; DECISIONS.md {rule.decision}"
        return text

    def as_dict(self, lang: str = "en") -> dict[str, object]:
        return {
            "rule": self.rule.id,
            "key": self.rule.key,
            "verdict": self.verdict.value,
            "basis": self.rule.basis.value,
            "citation": self.rule.citation,
            "decision": self.rule.decision or None,
            "quote": self.rule.quote or None,
            "short": self.short(lang),
            "long": self.long(lang),
        }


@dataclass(frozen=True)
class Explanation:
    """The answer to "may this move be played?", with every ruling behind it.

    ``rulings[0]`` decides: for an illegal move the rule that forbids it, for a legal
    move the rule that allows it; the others describe what the move does (a swap, a fall
    into the water, an extra throw).
    """

    move: Move
    legal: bool
    rulings: tuple[Ruling, ...]

    @property
    def deciding(self) -> Ruling:
        return self.rulings[0]

    def as_dict(self, lang: str = "en") -> dict[str, object]:
        return {
            "move": str(self.move),
            "legal": self.legal,
            "rule": self.deciding.rule.id,
            "rulings": [r.as_dict(lang) for r in self.rulings],
        }


TextPair = tuple[str, str]  # (French, English)


def bilingual(
    key: str,
    rule_id: str,
    basis: Basis,
    citation: str,
    short: TextPair,
    long: TextPair,
    *,
    quote: str = "",
    decision: str = "",
    allowed: tuple[TextPair, TextPair] | None = None,
    decision_from_id: bool = False,
) -> Rule:
    """A rule from (French, English) short and long texts, and others for allowing where
    they differ. With ``decision_from_id`` a rule rests on the decision of its own id
    (rule sets whose every id is a DECISIONS.md id); G ids are source rules taken for
    granted."""
    if decision_from_id and not decision and not rule_id.startswith("G"):
        decision = rule_id
    short_allowed, long_allowed = allowed or (("", ""), ("", ""))
    return Rule(
        key=key,
        id=rule_id,
        basis=basis,
        citation=citation,
        short={"fr": short[0], "en": short[1]},
        long={"fr": long[0], "en": long[1]},
        quote=quote,
        decision=decision,
        short_allowed={"fr": short_allowed[0], "en": short_allowed[1]} if allowed else {},
        long_allowed={"fr": long_allowed[0], "en": long_allowed[1]} if allowed else {},
    )


class RuleBook(Mapping[str, Rule]):
    """The rules of one rule set, by key."""

    def __init__(self, rules: Iterable[Rule]) -> None:
        self._rules: dict[str, Rule] = {}
        for rule in rules:
            if rule.key in self._rules:
                raise ValueError(f"rule key {rule.key!r} defined twice")
            self._rules[rule.key] = rule

    def __getitem__(self, key: str) -> Rule:
        return self._rules[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._rules)

    def __len__(self) -> int:
        return len(self._rules)

    # Each builds ``Ruling(rule, verdict, details)`` without the frozen dataclass's
    # ``object.__setattr__`` for each field: legal move generation makes one for every
    # refused candidate, so this is a hot path.
    def ruling(self, key: str, verdict: Verdict, **details: object) -> Ruling:
        ruling = _new(Ruling)
        ruling.__dict__.update(rule=self._rules[key], verdict=verdict, details=details)
        return ruling

    def forbids(self, key: str, **details: object) -> Ruling:
        ruling = _new(Ruling)
        ruling.__dict__.update(rule=self._rules[key], verdict=_FORBIDS, details=details)
        return ruling

    def allows(self, key: str, **details: object) -> Ruling:
        ruling = _new(Ruling)
        ruling.__dict__.update(rule=self._rules[key], verdict=_ALLOWS, details=details)
        return ruling

    def effect(self, key: str, **details: object) -> Ruling:
        ruling = _new(Ruling)
        ruling.__dict__.update(rule=self._rules[key], verdict=_EFFECT, details=details)
        return ruling


def _language(lang: str) -> str:
    return lang if lang in LANGUAGES else "en"
