"""The deterministic expectation forms, decided in code with no model call.

``contains`` / ``not_contains`` look for the text as ``core/text/exact_match`` reads it — the
one function the scenario generator proves its ``contains`` with: width- and case-insensitive,
number forms normalised (「３日間」 says 「3日」, "seven days" says "7 days"), a number never
found inside a longer one. ``regex`` searches the pattern on NFKC-normalised, casefolded text
(``expectation_items.normalise``), so ``ＡＢＣ-１２３`` in an answer matches ``abc-123``. The check's ``p_yes`` is 1.0 when the answer does what
the form tests for (contains it, matches it) and 0.0 when not; ``read`` is ``"code"``.
"""

from __future__ import annotations

from ...config.expectation_items import compile_pattern, normalise
from ...text.exact_match import says_exactly
from ...types.expectations import Expectation, ExpectationCheck


def answer_does(expectation: Expectation, answer: str) -> bool:
    """Whether the answer contains the text (``contains``, ``not_contains``) or matches the
    pattern (``regex``). For ``not_contains`` that is the forbidden act: it breaks the rule."""
    if expectation.form == "regex":
        return compile_pattern(expectation.text).search(normalise(answer)) is not None
    return says_exactly(answer, expectation.text)


def code_check(expectation: Expectation, turn: int, answer: str) -> ExpectationCheck:
    return ExpectationCheck(turn=turn, p_yes=1.0 if answer_does(expectation, answer) else 0.0, read="code")
