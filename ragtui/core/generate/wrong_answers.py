"""Wrong answers made for the purpose, in code: what an expectation must fail before it is written.

- the reference with its key fact changed: its first number one more ("5 business days" → "6
  business days", 「３日」 → 「4日」, "seven days" → "8 days"); with no number, its menu path in
  reverse order, or a screen or label it names in quotes replaced by another ("Home", 「ホーム」);
- the reference of another item (the caller picks it: one of the same document first).

Deterministic: the same reference gives the same wrong answer run to run, so a proof's requests
are the same and the reply cache answers them when generating again.
"""

from __future__ import annotations

import re
import unicodedata

from ..text.exact_match import exact_form
from .facts import menu_paths

_NUMBER = re.compile(
    r"[0-9０-９]+(?:[,，][0-9０-９]{3})*|\b(?:one|two|three|four|five|six|seven|eight|nine|ten)\b", re.I
)
_KANJI = re.compile(r"[一二三四五六七八九](?=\s*(?:日|週|か月|ヶ月|カ月|年|回|時間|分|営業日|件|個))")
_QUOTED = re.compile(r"([\"“「『])([^\"”」』\n]{1,40})([\"”」』])")
_OTHER_NAME = {"en": ("Home", "Help"), "ja": ("ホーム", "ヘルプ")}


def changed_fact(reference: str, language: str) -> str | None:
    """The reference with its key fact changed (see the module docstring); None when it has none
    code can change."""
    numbers = [*_NUMBER.finditer(reference), *_KANJI.finditer(reference)]
    if numbers:
        first = min(numbers, key=lambda m: m.start())
        value = int(exact_form(first.group(0)).replace(",", "") or 0)
        return reference[: first.start()] + str(value + 1) + reference[first.end() :]
    for path in menu_paths(reference):
        steps = [s.strip() for s in re.split(r"\s?[>＞›]\s?", path)]
        if len(steps) > 1 and len(set(steps)) > 1:
            arrow = " > " if " > " in path else ">"
            return reference.replace(path, arrow.join(reversed(steps)), 1)
    quoted = _QUOTED.search(reference)
    if quoted:
        first_name, second_name = _OTHER_NAME.get(language, _OTHER_NAME["en"])
        name = (
            second_name
            if unicodedata.normalize("NFKC", quoted.group(2)).casefold() == first_name.casefold()
            else first_name
        )
        return reference[: quoted.start(2)] + name + reference[quoted.end(2) :]
    return None
