"""Which passage each generated item is drawn from, and of which kind — planned before any model
is called, so a run's items cover the knowledge base instead of its first document.

Passages are taken round-robin across documents, and within a document across its headings, so
no passage is used twice until every passage has been used once; kinds rotate in the order given,
and out-of-scope probes (which need no passage) take their share of the items."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from ..types.knowledge import SourcedPassage

KINDS = ("factual", "procedural", "conditional", "two_questions", "distracting_detail", "situational")
OUT_OF_SCOPE = "out_of_scope"
T = TypeVar("T")
OUT_OF_SCOPE_EVERY = 6  # one item in six probes what the knowledge base does not say


@dataclass(frozen=True)
class PlannedItem:
    index: int
    kind: str
    passage: SourcedPassage | None  # None for an out-of-scope probe


def passage_order(passages: Sequence[SourcedPassage]) -> list[SourcedPassage]:
    """Every passage once, interleaved: document by document, and within each document heading
    by heading, so the first N cover as many documents and sections as N can."""
    by_doc: dict[str, dict[tuple[str, ...], list[SourcedPassage]]] = defaultdict(lambda: defaultdict(list))
    for passage in passages:
        by_doc[passage.doc_id][passage.heading].append(passage)
    queues = {doc: _interleave(list(sections.values())) for doc, sections in by_doc.items()}
    return _interleave(list(queues.values()))


def _interleave(groups: list[list[T]]) -> list[T]:
    out: list[T] = []
    for round_ in range(max((len(g) for g in groups), default=0)):
        out += [group[round_] for group in groups if round_ < len(group)]
    return out


def plan(
    passages: Sequence[SourcedPassage],
    n: int,
    kinds: Sequence[str] = (*KINDS, OUT_OF_SCOPE),
    fits: Callable[[SourcedPassage, str], bool] = lambda passage, kind: True,
) -> list[PlannedItem]:
    """Up to ``n`` items: kinds in turn (an out-of-scope probe every ``OUT_OF_SCOPE_EVERY`` items
    when asked for), each grounded kind on the next passage of ``passage_order``, cycling only once
    every passage has had its turn, until every passage has had every kind; the plan stops there
    (``supported``): one more item would ask for a passage in a kind it was already asked for,
    the same draft again. A pair ``fits`` says no to (a passage with no part that can answer
    that kind: no steps for a procedural item) is passed over: it would only be dropped."""
    grounded = [k for k in kinds if k != OUT_OF_SCOPE]
    probes = OUT_OF_SCOPE in kinds
    order = passage_order(passages)
    if not order and grounded:
        raise ValueError("no passage to ground an item on")
    queue = iter(_pairs(order, grounded, fits))
    items: list[PlannedItem] = []
    for index in range(n):
        if probes and (not grounded or (index + 1) % OUT_OF_SCOPE_EVERY == 0):
            items.append(PlannedItem(index, OUT_OF_SCOPE, None))
            continue
        pair = next(queue, None)
        if pair is None:
            break
        items.append(PlannedItem(index, *pair))
    return items


def _pairs(
    order: list[SourcedPassage], grounded: list[str], fits: Callable[[SourcedPassage, str], bool]
) -> list[tuple[str, SourcedPassage]]:
    """Every (kind, passage) pair once, in plan order. Kinds and passages both in turn; once
    their pairs would come round again (after lcm(kinds, passages) items) the passages shift by
    one, to pairs not planned yet. The pairs that do not fit are left out and the kinds stay in
    turn: a kind few passages can answer is not pushed to the end."""
    if not grounded:
        return []
    cycle = math.lcm(len(order), len(grounded))
    by_kind: dict[str, list[tuple[str, SourcedPassage]]] = {kind: [] for kind in grounded}
    for used in range(len(order) * len(grounded)):
        kind, passage = grounded[used % len(grounded)], _passage_at(order, used, cycle)
        if fits(passage, kind):
            by_kind[kind].append((kind, passage))
    return _interleave(list(by_kind.values()))


def _passage_at(order: list[SourcedPassage], used: int, cycle: int) -> SourcedPassage:
    return order[(used + used // cycle) % len(order)]


def supported(
    passages: Sequence[SourcedPassage],
    kinds: Sequence[str],
    fits: Callable[[SourcedPassage, str], bool] = lambda passage, kind: True,
) -> int | None:
    """How many items the passages support in these kinds (``plan``'s cap), or None when the
    kinds are probes only (no passage is used)."""
    grounded = [k for k in kinds if k != OUT_OF_SCOPE]
    if not grounded:
        return None
    cells = len(passages) * len(grounded)
    return len(plan(passages, 2 * cells + OUT_OF_SCOPE_EVERY, kinds, fits))  # more than it can take
