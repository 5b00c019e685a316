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
