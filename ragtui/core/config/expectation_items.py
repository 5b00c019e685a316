"""Expectations as people write them in TOML, turned into ``Expectation`` records.

A scenario's ``expect`` / ``expect_not`` and the config's ``[[policy]]`` tables share one item
syntax::

    expect = [
        "says unused time is not refunded",            # judged: a yes/no question to the judge
        { contains = "billing@tsumugi.example" },       # decided in code
        { regex = "30\\s*days" },
        { not_contains = "refund guaranteed" },
        { id = "refund-rule", text = "says unused time is not refunded" },
    ]

A judged ``expect`` item written as a prohibition ("does not promise a refund", 「…しないこと」)
is read as one: asked about the act, kept unless an answer does it, as under ``expect_not``.

An item's ``id`` keeps its results lined up across runs; without one the id is derived from
the text (a slug and a short hash), so it is stable as long as the text is. Every problem is
one ``ConfigError`` line naming the file, the scenario (or policy) and the key.

This sits in the config package (below the content loaders), since both the scenario files and
the config read these items.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, TypeVar

from ..text.prohibition import forbids_in_any_language
from ..types.expectations import Expectation, Form, Origin, Polarity, Proof
from . import declared
from .reader import read
from .rules import after, before, invalid

FORM_KEYS: tuple[Form, ...] = ("contains", "regex", "not_contains")
ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
MAX_TEXT = 500  # an expectation is one sentence: a longer one is a paragraph the judge reads badly


def normalise(text: str) -> str:
    """NFKC then casefold: full-width and half-width forms (ＡＢＣ１２３, ｶﾀｶﾅ) compare equal, and
    case does not matter. Deterministic forms match on this, on both sides."""
    return unicodedata.normalize("NFKC", text).casefold()


def derived_id(text: str) -> str:
    """A stable id from the text: an ASCII slug (may be empty for Japanese) and a short hash."""
    slug = re.sub(r"[^a-z0-9]+", "-", normalise(text)).strip("-")[:32].strip("-")
    digest = hashlib.sha1(normalise(text).encode("utf-8")).hexdigest()[:6]
    return f"{slug}-{digest}" if slug else f"x-{digest}"


def compile_pattern(pattern: str) -> re.Pattern[str]:
    """A regex form's pattern, matched against normalised text (so it is normalised too)."""
    return re.compile(normalise(pattern))


def sentence(value: str) -> str:
    """One expectation's text: not empty, not a paragraph."""
    text = value.strip()
    if not text:
        raise invalid(": the expectation is empty", "write what the bot must (or must not) say")
    if len(text) > MAX_TEXT:
        raise invalid(f": the expectation is {len(text)} characters long", f"keep it under {MAX_TEXT}")
    return text


def compiles(text: str) -> str:
    try:
        compile_pattern(text)
    except re.error as exc:
        raise invalid(f": {text!r} does not compile: {exc}") from None
    return text


def valid_id(eid: str) -> str:
    if not ID.match(eid):
        raise invalid(f": {eid!r} is not valid", "use letters, digits, '-', '_' or '.'")
    return eid


Sentence = Annotated[str, after(sentence)]
ItemId = Annotated[str, after(valid_id)]


def probability(value: float) -> float:
    if not 0.0 <= value <= 1.0:
        raise invalid(f"must be between 0 and 1, got {value:g}")
    return value


# ``checked = { reference = 0.93, wrong = 0.06 }``: how a generated expectation proved itself
# before it was written (``types.expectations.Proof``). Shown to a reviewer; asks nothing.
declared.declare(Proof, declared.FileForm(rules={"reference": (after(probability),), "wrong": (after(probability),)}))


def sentence_or_table(item: Any) -> Any:
    if isinstance(item, str):
        return {"text": sentence(item)}
    if not isinstance(item, dict):
        raise invalid(f"must be str or dict, got {type(item).__name__} {item!r}")
    return item


def a_table(item: Any) -> Any:
    if not isinstance(item, dict):
        raise invalid(f"must be dict, got {type(item).__name__} {item!r}")
    return item


def one_form(item: ExpectItem) -> None:
    forms = [k for k in FORM_KEYS if getattr(item, k) is not None]
    if len(forms) > 1:
        raise invalid(f": give one of {', '.join(FORM_KEYS)}, not {' and '.join(forms)}")
    if forms and item.text is not None:
        raise invalid(f": give either text (judged) or {forms[0]} (decided in code), not both")
    if not forms and item.text is None:
        raise invalid(": needs text, contains, regex or not_contains")


@dataclass(frozen=True)
class ExpectItem:
    """One item of ``expect`` / ``expect_not``: a sentence (judged), or a table with ``text`` or
    one deterministic form, and an optional ``id``."""

    id: ItemId | None = None
    text: Sentence | None = None
    contains: Sentence | None = None
    regex: Annotated[Sentence, after(compiles)] | None = None
    not_contains: Sentence | None = None
    origin: ClassVar[Origin] = "scenario"

    def expectation(self, polarity: Polarity, tags: Iterable[str] = ()) -> Expectation:
        form: Form = next((k for k in FORM_KEYS if getattr(self, k) is not None), "judged")
        text = str(getattr(self, form) if form != "judged" else self.text)
        if form == "not_contains":
            # "no answer contains it", in either list: broken by the first answer that contains it
            polarity = "must_not"
        if form == "judged" and polarity == "must" and forbids_in_any_language(text):
            # "does not promise a refund" under expect: the judge reads the act far better than a
            # negated sentence about it (docs/expectations-agreement.md), so it is a prohibition —
            # asked as "promises a refund", kept unless an answer does it, as under expect_not.
            polarity = "must_not"
        eid = self.id or derived_id(f"{form}:{text}" if form != "judged" else text)
        checked = getattr(self, "checked", None)  # a scenario's item only (ScenarioItem)
        return Expectation(eid, text, form, polarity, self.origin, tuple(tags), checked)


@dataclass(frozen=True)
class ScenarioItem(ExpectItem):
    """An item of a scenario's ``expect`` / ``expect_not``: may carry the proof ``scenarios
    generate`` wrote (``checked``), which a policy never has."""

    checked: Proof | None = None


@dataclass(frozen=True)
class PolicyItem(ExpectItem):
    """A ``[[policy]]`` table: a prohibition (``must_not``) with optional ``tags``."""

    tags: tuple[str, ...] = ()
    origin: ClassVar[Origin] = "policy"

    def policy(self) -> Expectation:
        return self.expectation("must_not", self.tags)


declared.declare(ExpectItem, declared.FileForm(before=(before(sentence_or_table),), after=(one_form,)))
declared.declare(ScenarioItem, declared.FileForm(before=(before(sentence_or_table),), after=(one_form,)))
declared.declare(PolicyItem, declared.FileForm(before=(before(a_table),), after=(one_form,)))

Items = TypeVar("Items", bound=Iterable[Any])


def unique_ids(items: Items) -> Items:
    """Ids line results up across runs, so no two expectations of one list may share one."""
    seen: set[str] = set()
    for item in items:
        eid = item.id if isinstance(item, Expectation) else item.expectation("must").id
        if eid in seen:
            raise invalid(f": id {eid!r} is used twice", "give each expectation its own id")
        seen.add(eid)
    return items


def policies(items: list[PolicyItem]) -> tuple[Expectation, ...]:
    return tuple(item.policy() for item in items)


# The config's ``[[policy]]`` tables, checked, as the prohibitions they are.
PolicyList = Annotated[
    tuple[Expectation, ...], declared.WrittenAs(list[PolicyItem]), after(unique_ids), after(policies)
]


@dataclass(frozen=True)
class Policies:
    """The config's ``[[policy]]`` array alone."""

    policy: PolicyList = ()


declared.declare(Policies, declared.FileForm(named_arrays=frozenset({"policy"})))


def expectation_from_text(text: str, form: Form, polarity: Polarity, at: str = "the expectation") -> Expectation:
    """One expectation typed by a person to try it (``ragtui expect``, the TUI's verdict screen):
    the text, its form (judged or a deterministic one) and its polarity, checked like a TOML item
    (an empty text or a regex that does not compile is one ``ConfigError`` line)."""
    item: object = text if form == "judged" else {form: text}
    return read(ExpectItem, item, at).expectation(polarity)


def parse_policies(raw: object, where: str) -> tuple[Expectation, ...]:
    """The config's ``[[policy]]`` tables, checked alone (``where``: the config file)."""
    return read(Policies, {"policy": raw}, where, top_level=True).policy


def policies_for(policies: Iterable[Expectation], tags: Iterable[str]) -> list[Expectation]:
    """The policies that apply to a scenario with these tags (a policy without tags: all)."""
    own = set(tags)
    return [p for p in policies if not p.tags or own.intersection(p.tags)]


def unmatched_policies(policies: Iterable[Expectation], scenario_tags: Iterable[Iterable[str]]) -> list[Expectation]:
    """Policies with tags that select none of these scenarios (a typo in a tag, most likely)."""
    every = {t for tags in scenario_tags for t in tags}
    return [p for p in policies if p.tags and not every.intersection(p.tags)]
