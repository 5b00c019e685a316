"""The TUI's judge-prompt editor opens the prompt file as text; a file that is not UTF-8 is one
line naming it and the fix, never a traceback."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from ragtui.core.types.errors import RagtuiError
from ragtui.tui.rejudge import judge_prompt_text


def test_a_judge_prompt_that_is_not_utf8_is_one_line_naming_it(tmp_path: Path):
    (tmp_path / "en").mkdir()
    path = tmp_path / "en" / "judge_rubric.toml"
    path.write_bytes('system = "café"\n'.encode("latin-1"))
    engine = SimpleNamespace(config=SimpleNamespace(prompts=tmp_path))
    with pytest.raises(RagtuiError, match="is not UTF-8 text") as caught:
        judge_prompt_text(engine, "en")  # type: ignore[arg-type]
    assert str(path) in str(caught.value) and "save it as UTF-8" in str(caught.value)
