"""The deterministic expectation forms, decided in code with no model call.

``contains`` / ``not_contains`` look for the text, ``regex`` searches the pattern; both sides
are NFKC-normalised and casefolded (``expectation_items.normalise``), so ``ＡＢＣ-１２３`` in an
answer matches ``abc-123`` in the file. The check's ``p_yes`` is 1.0 when the answer does what
the form tests for (contains it, matches it) and 0.0 when not; ``read`` is ``"code"``.
"""

from __future__ import annotations

from ...config.expectation_items import compile_pattern, normalise
from ...types.expectations import Expectation, ExpectationCheck


def answer_does(expectation: Expectation, answer: str) -> bool:
    """Whether the answer contains the text (``contains``, ``not_contains``) or matches the
    pattern (``regex``). For ``not_contains`` that is the forbidden act: it breaks the rule."""
    text = normalise(answer)
    if expectation.form == "regex":
        return compile_pattern(expectation.text).search(text) is not None
    return normalise(expectation.text) in text


def code_check(expectation: Expectation, turn: int, answer: str) -> ExpectationCheck:
    return ExpectationCheck(turn=turn, p_yes=1.0 if answer_does(expectation, answer) else 0.0, read="code")
