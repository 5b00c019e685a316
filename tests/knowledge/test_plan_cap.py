"""A plan asks for each passage in each kind once at most: past that it stops (an --n the
passages cannot support would only plan the same drafts again), and every pair it can plan is
planned, whatever the counts of passages and kinds."""

from __future__ import annotations

import pytest

from ragtui.core.generate.plan import KINDS, OUT_OF_SCOPE, plan, supported
from ragtui.core.types.knowledge import SourcedPassage


def passages(n: int) -> list[SourcedPassage]:
    return [SourcedPassage(f"d{i}.md", f"D{i}", (f"D{i}",), None, 0, 9, f"text {i}", f"h{i}") for i in range(n)]


@pytest.mark.parametrize("count", [1, 4, 5, 12, 15])
@pytest.mark.parametrize("kinds", [(*KINDS, OUT_OF_SCOPE), KINDS, KINDS[:4], ("factual",)])
def test_every_passage_is_planned_in_every_kind_once_then_the_plan_stops(count: int, kinds: tuple[str, ...]):
    items = plan(passages(count), 500, kinds)
    pairs = [(item.kind, item.passage.doc_id) for item in items if item.passage is not None]
    grounded = [k for k in kinds if k != OUT_OF_SCOPE]
    assert len(pairs) == len(set(pairs)) == count * len(grounded)
    assert len(items) == supported(passages(count), kinds) < 500


def test_fifteen_passages_support_108_items_of_every_kind_and_probes_are_not_capped():
    assert supported(passages(15), (*KINDS, OUT_OF_SCOPE)) == 108  # 90 grounded, a probe every sixth
    assert supported(passages(15), (OUT_OF_SCOPE,)) is None
    assert len(plan(passages(15), 40, (OUT_OF_SCOPE,))) == 40


def test_a_pair_that_does_not_fit_is_passed_over_and_the_kinds_stay_in_turn():
    """Only two passages can answer a procedural item (they have steps): the plan asks them, and
    every other passage in the other kinds, and never a passage for a kind it cannot answer."""
    with_steps = {"d1.md", "d3.md"}

    def fits(passage: SourcedPassage, kind: str) -> bool:
        return kind != "procedural" or passage.doc_id in with_steps

    kinds = ("factual", "procedural", "conditional")
    items = plan(passages(6), 500, kinds, fits)
    pairs = [(item.kind, item.passage.doc_id) for item in items if item.passage is not None]
    assert sorted(d for k, d in pairs if k == "procedural") == sorted(with_steps)
    assert len(pairs) == len(set(pairs)) == 6 + 2 + 6 == supported(passages(6), kinds, fits)
    # the first items still take the kinds in turn: procedural's two are not left to the end
    assert [item.kind for item in items[:6]] == [*kinds, *kinds]


def test_without_a_fit_the_plan_is_the_plain_rotation():
    items = plan(passages(5), 12, KINDS)
    assert [item.kind for item in items] == [*KINDS, *KINDS]
    assert [item.passage.doc_id for item in items if item.passage] == [f"d{i % 5}.md" for i in range(12)]
