"""Prohibitions as teams write them, and the act each forbids (``core.text.prohibition``)."""

from __future__ import annotations

import pytest

from ragtui.core.text.prohibition import forbidden_act, forbids


@pytest.mark.parametrize(
    ("text", "language", "act"),
    [
        ("does not promise a refund", "en", "promises a refund"),
        ("never tells the customer to share the pickup code", "en", "tells the customer to share the pickup code"),
        ("doesn't ask for the Wi-Fi password", "en", "asks for the Wi-Fi password"),
        ("must not push a premium plan", "en", "pushes a premium plan"),
        ("does not apply a discount", "en", "applies a discount"),
        ("the bot must never say it is human", "en", "says it is human"),
        ("再配達の手数料を無料にすると約束しない", "ja", "再配達の手数料を無料にすると約束する"),
        ("他社の水筒の購入を勧めないこと", "ja", "他社の水筒の購入を勧める"),
        ("決してパスワードを聞かない", "ja", "パスワードを聞く"),
    ],
)
def test_a_prohibition_is_turned_into_its_act(text: str, language: str, act: str):
    assert forbidden_act(text, language) == act
    assert forbids(text, language)


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("says unused time is not refunded", "en"),  # a negation inside what must be said
        ("promises a refund", "en"),
        ("返金できないことを伝える", "ja"),
        ("集荷日の前日17時までなら変更できると伝える", "ja"),
    ],
)
def test_a_rule_to_meet_is_no_prohibition(text: str, language: str):
    assert not forbids(text, language)
    assert forbidden_act(text, language) == text
