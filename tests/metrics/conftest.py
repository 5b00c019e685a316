"""Fixtures shared by the calibration tests: a config whose judge is the fake server."""

from __future__ import annotations

from pathlib import Path

import pytest

from ..conftest import JUDGE


@pytest.fixture
def config_file(server, tmp_path: Path) -> Path:
    """``ragtui.toml`` with the judge role on the fake server and no retries (a failure shows)."""
    path = tmp_path / "ragtui.toml"
    path.write_text(
        f'language = "en"\ndatabase = "cal.db"\n[endpoint]\nbase_url = "{server.base_url}"\n'
        f'max_retries = 0\ntimeout = 10\n[roles.judge]\nmodel = "{JUDGE}"\n',
        encoding="utf-8",
    )
    return path
