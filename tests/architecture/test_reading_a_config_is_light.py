"""Reading a config is on the way to the TUI's first frame: it must load the config's own
declarations and nothing heavier — no metric, bot or store module, no HTTP client, no
validation library — and each declaration's check is made once, the first time it is read."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

HEAVY_PACKAGES = ("ragtui.core.metrics", "ragtui.core.bots", "ragtui.core.store", "ragtui.core.judge_quality")
HEAVY_LIBRARIES = ("httpx", "openai", "pydantic", "pydantic_core", "sqlite_utils", "textual")

PROBE = """
import json, sys
from pathlib import Path
import ragtui.core.config
from ragtui.core.config import reader
from ragtui.core.config.settings import parse_config
made_at_import = len(reader._CHECKS)
config = parse_config({"language": "ja", "max_turns": 2}, Path(sys.argv[1]))
print(json.dumps({
    "modules": sorted(sys.modules),
    "made_at_import": made_at_import,
    "read": [config.language, config.max_turns],
}))
"""


def loaded_after_reading(tmp_path: Path) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(tmp_path / "ragtui.toml")], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_two_key_config_loads_no_metric_bot_store_or_http_module(tmp_path: Path) -> None:
    found = loaded_after_reading(tmp_path)
    assert found["read"] == ["ja", 2]
    modules = [str(m) for m in found["modules"]]  # type: ignore[attr-defined]
    heavy = [m for m in modules if any(m == p or m.startswith(p + ".") for p in HEAVY_PACKAGES + HEAVY_LIBRARIES)]
    assert heavy == []


def test_checks_are_made_on_first_read_and_kept() -> None:
    from ragtui.core.config import reader
    from ragtui.core.config.settings import Config, parse_config

    parse_config({"max_turns": 2}, Path("ragtui.toml"))
    made = reader._CHECKS[Config, ""]
    parse_config({"max_turns": 3}, Path("ragtui.toml"))
    assert reader._CHECKS[Config, ""] is made


def test_no_check_is_made_at_import(tmp_path: Path) -> None:
    assert loaded_after_reading(tmp_path)["made_at_import"] == 0
