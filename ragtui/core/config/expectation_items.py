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

An item's ``id`` keeps its results lined up across runs; without one the id is derived from
the text (a slug and a short hash), so it is stable as long as the text is. Every problem is
one ``ConfigError`` line naming the file, the scenario (or policy) and the key.

This sits beside ``toml_io`` (below the config and the content loaders), since both the
scenario files and the config read these items.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable
from typing import Any

from ..types.errors import ConfigError
from ..types.expectations import Expectation, Form, Origin, Polarity
from .toml_io import expect_type

ITEM_KEYS = {"id", "text", "contains", "regex", "not_contains"}
POLICY_KEYS = {"id", "text", "tags", "contains", "regex", "not_contains"}
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


def parse_items(
    raw: object,
    where: str,
    key: str,
    *,
    polarity: Polarity,
    origin: Origin = "scenario",
    seen: set[str] | None = None,
) -> list[Expectation]:
    """The items of one ``expect`` / ``expect_not`` list. ``where`` names the file and the
    scenario; ``seen`` collects ids so a duplicate across both lists is caught."""
    items = expect_type(raw, list, f"{where} {key}")
    seen = set() if seen is None else seen
    out: list[Expectation] = []
    for index, item in enumerate(items, start=1):
        at = f"{where} {key}[{index}]"
        expectation = parse_item(item, at, polarity=polarity, origin=origin)
        _claim(expectation.id, seen, at)
        out.append(expectation)
    return out


def parse_item(
    item: object,
    at: str,
    *,
    polarity: Polarity,
    origin: Origin = "scenario",
    keys: set[str] | None = None,
    tags: Iterable[str] = (),
) -> Expectation:
    """One item: a sentence (judged) or a table with ``text`` or one deterministic form."""
    if isinstance(item, str):
        return Expectation(derived_id(_text(item, at)), _text(item, at), "judged", polarity, origin, tuple(tags))
    table: dict[str, Any] = expect_type(item, (str, dict), at)
    allowed = keys or ITEM_KEYS
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise ConfigError(f"{at}: unknown key {unknown[0]!r}", f"allowed keys: {', '.join(sorted(allowed))}")
    forms = [k for k in FORM_KEYS if k in table]
    if len(forms) > 1:
        raise ConfigError(f"{at}: give one of {', '.join(FORM_KEYS)}, not {' and '.join(forms)}")
    if forms and "text" in table:
        raise ConfigError(f"{at}: give either text (judged) or {forms[0]} (decided in code), not both")
    if not forms and "text" not in table:
        raise ConfigError(f"{at}: needs text, contains, regex or not_contains")
    key = forms[0] if forms else "text"
    text = _text(expect_type(table[key], str, f"{at} {key}"), f"{at} {key}")
    form: Form = forms[0] if forms else "judged"
    if form == "regex":
        try:
            compile_pattern(text)
        except re.error as exc:
            raise ConfigError(f"{at} regex: {text!r} does not compile: {exc}") from None
    if form == "not_contains":
        # "no answer contains it", in either list: broken by the first answer that contains it
        polarity = "must_not"
    if "id" in table:
        eid = expect_type(table["id"], str, f"{at} id")
        if not ID.match(eid):
            raise ConfigError(f"{at} id: {eid!r} is not valid", "use letters, digits, '-', '_' or '.'")
    else:
        eid = derived_id(f"{form}:{text}" if form != "judged" else text)
    return Expectation(eid, text, form, polarity, origin, tuple(tags))


def expectation_from_text(text: str, form: Form, polarity: Polarity, at: str = "the expectation") -> Expectation:
    """One expectation typed by a person to try it (``ragtui expect``, the TUI's verdict screen):
    the text, its form (judged or a deterministic one) and its polarity, checked like a TOML item
    (an empty text or a regex that does not compile is one ``ConfigError`` line)."""
    item: object = text if form == "judged" else {form: text}
    return parse_item(item, at, polarity=polarity)


def parse_policies(raw: object, where: str) -> tuple[Expectation, ...]:
    """The config's ``[[policy]]`` tables: prohibitions (``must_not``) with optional ``tags``."""
    tables = expect_type(raw, list, f"{where}: policy")
    seen: set[str] = set()
    out: list[Expectation] = []
    for index, table in enumerate(tables, start=1):
        at = f"{where}: policy #{index}"
        table = expect_type(table, dict, at)
        if isinstance(table.get("id"), str):
            at = f"{where}: policy {table['id']!r}"
        tags = [expect_type(t, str, f"{at} tags[]") for t in expect_type(table.get("tags", []), list, f"{at} tags")]
        body = {k: v for k, v in table.items() if k != "tags"}
        unknown = sorted(set(table) - POLICY_KEYS)
        if unknown:
            raise ConfigError(f"{at}: unknown key {unknown[0]!r}", f"allowed keys: {', '.join(sorted(POLICY_KEYS))}")
        policy = parse_item(body, at, polarity="must_not", origin="policy", tags=tags)
        _claim(policy.id, seen, at)
        out.append(policy)
    return tuple(out)


def policies_for(policies: Iterable[Expectation], tags: Iterable[str]) -> list[Expectation]:
    """The policies that apply to a scenario with these tags (a policy without tags: all)."""
    own = set(tags)
    return [p for p in policies if not p.tags or own.intersection(p.tags)]


def unmatched_policies(policies: Iterable[Expectation], scenario_tags: Iterable[Iterable[str]]) -> list[Expectation]:
    """Policies with tags that select none of these scenarios (a typo in a tag, most likely)."""
    every = {t for tags in scenario_tags for t in tags}
    return [p for p in policies if p.tags and not every.intersection(p.tags)]


def _text(value: str, at: str) -> str:
    text = value.strip()
    if not text:
        raise ConfigError(f"{at}: the expectation is empty", "write what the bot must (or must not) say")
    if len(text) > MAX_TEXT:
        raise ConfigError(f"{at}: the expectation is {len(text)} characters long", f"keep it under {MAX_TEXT}")
    return text


def _claim(eid: str, seen: set[str], at: str) -> None:
    if eid in seen:
        raise ConfigError(f"{at}: id {eid!r} is used twice", "give each expectation its own id")
    seen.add(eid)
