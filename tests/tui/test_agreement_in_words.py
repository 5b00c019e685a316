"""How far the judge agrees with people, as a support engineer reads it: words first ("low
agreement with people"), figures second; a trusted judge's score under the threshold reads as
failing, in red, while a low-agreement one keeps ≈ and grey. Pilot, real SQLite."""

from __future__ import annotations

import pytest
from rich.text import Text

from ragtui.core.store.store import Store
from ragtui.core.text.score_text import FAIL_STYLE, LOW_STYLE

from .conftest import settle
from .test_low_agreement_pane import colours, header_text, stored_session, verdict_block
from .test_wide_layouts import WIDE

SMALL = (80, 24)
LOW_WORDS = "≈ low agreement with people (Spearman 0.10, n=18; floor 0.5)"


def style_of(text: Text, words: str) -> str:
    """The style of the span that starts where ``words`` does in ``text``."""
    at = text.plain.index(words)
    return next(str(span.style) for span in text.spans if span.start == at)


@pytest.mark.parametrize("size", [SMALL, WIDE], ids=["80x24", "wide"])
async def test_a_low_agreement_verdict_leads_with_words_and_its_low_score_stays_grey(make_app, store: Store, size):
    session = stored_session(store, 0.25, 0.10)
    app = make_app()
    async with app.run_test(size=size) as pilot:
        app.screen.open_session(session)
        await settle(pilot)
        block = verdict_block(app)
        assert LOW_WORDS in block.plain and "< floor" not in block.plain
        assert "≈ below 0.70" in block.plain and style_of(block, "≈ below 0.70") == LOW_STYLE
        assert not colours(block) & {"red", "green"}
        assert f"· {LOW_WORDS}" in header_text(app).plain


@pytest.mark.parametrize("size", [SMALL, WIDE], ids=["80x24", "wide"])
async def test_a_trusted_judge_s_score_under_the_threshold_reads_as_failing(make_app, store: Store, size):
    session = stored_session(store, 0.25, 0.80)
    app = make_app()
    async with app.run_test(size=size) as pilot:
        app.screen.open_session(session)
        await settle(pilot)
        block = verdict_block(app)
        assert "0.25  fails: below 0.70" in block.plain and style_of(block, "fails: below 0.70") == FAIL_STYLE
        assert "agrees with people (Spearman 0.80, n=18)" in block.plain and "≈" not in block.plain
