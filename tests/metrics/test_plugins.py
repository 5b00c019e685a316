"""Metrics and bot types from other packages (entry points ``ragtui.metrics``/``ragtui.bots``):
the worked example in examples/ragtui-plugin-example is installed and run end to end, and a
broken plugin is one warning line while the built-ins keep working."""

from __future__ import annotations

import importlib.util
import os
import shutil
import sqlite3
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from ragtui.core.config.bot_config import parse_bot
from ragtui.core.metrics import build_metrics, resolve_names
from ragtui.core.registry import metrics as registry
from ragtui.core.registry.metrics import MetricInfo, register_metric
from ragtui.core.types.errors import ConfigError
from ragtui.core.types.judgments import Judgment

from ..conftest import endpoint_toml

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "ragtui-plugin-example"


def write_dist_info(target: Path, name: str, version: str, entry_points: dict[str, dict[str, str]]) -> None:
    """The installed-package metadata importlib.metadata reads: METADATA and entry_points.txt."""
    info = target / f"{name.replace('-', '_')}-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n", encoding="utf-8")
    lines = [
        f"[{group}]\n" + "".join(f"{k} = {v}\n" for k, v in names.items()) for group, names in entry_points.items()
    ]
    (info / "entry_points.txt").write_text("\n".join(lines), encoding="utf-8")


def install_example(target: Path) -> None:
    """``pip install --target`` when a build backend for it is at hand offline (hatchling);
    otherwise the same result by hand: the package and a dist-info made from its pyproject.toml."""
    if importlib.util.find_spec("hatchling") is not None:
        command = [sys.executable, "-m", "pip", "install", "--no-deps", "--no-build-isolation", "--no-index"]
        subprocess.run([*command, "--target", str(target), str(EXAMPLE)], check=True, capture_output=True, timeout=120)
        return
    project = tomllib.loads((EXAMPLE / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    shutil.copytree(EXAMPLE / "ragtui_plugin_example", target / "ragtui_plugin_example")
    write_dist_info(target, project["name"], project["version"], project["entry-points"])


def run_ragtui(args: list[str], target: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(target), str(REPO), env.get("PYTHONPATH", "")])
    command = [sys.executable, "-m", "ragtui", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, env=env, cwd=cwd)


PLUGIN_CONFIG = """language = "en"
max_turns = 1
database = "runs.db"
metrics = ["answer_length"]
dialogue_metrics = []

[thresholds]
answer_length = 0.6

[bot]
type = "faq"
fallback = "Sorry, I can only help with the status page."
[bot.answers]
down = "Check the status page at https://status.tsumugi.example for outages."
"""


def test_example_plugin_adds_a_metric_and_a_bot_type(server, tmp_path: Path):
    """`pip install` the example, then `ragtui run` with its metric and its bot: the faq bot
    answers, answer_length is judged, stored with its [thresholds] pass mark and shown."""
    target = tmp_path / "site"
    install_example(target)
    config = tmp_path / "ragtui.toml"
    config.write_text(PLUGIN_CONFIG + endpoint_toml(server.base_url), encoding="utf-8")
    result = run_ragtui(["run", "--config", str(config), "-s", "outage", "-p", "calm"], target, tmp_path)
    assert result.returncode == 0, result.stderr
    assert "answer_length" in result.stdout and "warning" not in result.stderr
    db = sqlite3.connect(tmp_path / "runs.db")
    answers = [r[0] for r in db.execute("SELECT text FROM messages WHERE role = 'bot'")]
    assert answers == ["Check the status page at https://status.tsumugi.example for outages."]
    rows = db.execute(
        "SELECT score, json_extract(details, '$.threshold') FROM judgments WHERE metric = ?", ["answer_length"]
    )
    assert rows.fetchall() == [(1.0, 0.6)]  # 10 words: a readable length
    settings = db.execute("SELECT json_extract(config, '$.bot_settings.type') FROM sessions").fetchone()[0]
    assert settings == "faq"


def test_a_broken_plugin_is_one_warning_line_and_the_builtins_still_work(server, tmp_path: Path):
    target = tmp_path / "site"
    write_dist_info(
        target,
        "broken-plugin",
        "1.0",
        {"ragtui.metrics": {"shiny": "no_such_module:Shiny"}, "ragtui.bots": {"grpc": "ragtui:not_a_bot_type"}},
    )
    config = tmp_path / "ragtui.toml"
    config.write_text(
        'language = "en"\nmax_turns = 1\ndatabase = "runs.db"\nmetrics = ["faithfulness"]\n'
        'dialogue_metrics = []\n[bot]\ntype = "builtin"\n' + endpoint_toml(server.base_url),
        encoding="utf-8",
    )
    result = run_ragtui(["run", "--config", str(config), "-s", "outage", "-p", "calm"], target, tmp_path)
    assert "Traceback" not in result.stderr
    warnings = [line for line in result.stderr.splitlines() if "warning: plugin" in line]
    assert len(warnings) == 2, result.stderr
    assert any("shiny = no_such_module:Shiny (from broken-plugin 1.0) in ragtui.metrics" in w for w in warnings)
    assert any("ModuleNotFoundError" in w and "no_such_module" in w for w in warnings)
    assert any("grpc = ragtui:not_a_bot_type" in w and "AttributeError" in w for w in warnings)
    db = sqlite3.connect(tmp_path / "runs.db")
    metrics = {r[0] for r in db.execute("SELECT metric FROM judgments")}
    assert metrics == {"rubric", "faithfulness"}  # the built-in metrics and bot ran all the same


@pytest.fixture
def extra_metric():
    """A metric registered for one test, then removed."""

    @register_metric
    class Politeness:
        info = MetricInfo("politeness_test", default_threshold=0.4, calls=0, label_fields=("response",))

        def __init__(self, threshold: float) -> None:
            self.threshold = threshold

        @classmethod
        def build(cls, judge, prompts_dir, language, settings):
            return cls(settings.threshold(cls.info.name))

        async def judge(self, context, on_delta=None):
            return Judgment("politeness_test", 1.0)

    yield Politeness
    registry._classes.pop("politeness_test")


def test_a_registered_metric_is_known_everywhere_and_keeps_the_run_order(extra_metric, config):
    """A class with its MetricInfo is all it takes: a known metric with its default pass mark in
    the config's [thresholds], built by build_metrics, run after the primary and before trust."""
    from ragtui.core.config.settings import parse_config
    from ragtui.core.content.prompts import PromptSet

    assert resolve_names(["trust", "politeness_test"]) == [
        "rubric", "politeness_test", "faithfulness", "answerability", "answer_correctness", "trust",
    ]  # fmt: skip
    assert config.thresholds["politeness_test"] == 0.4
    parsed = parse_config({"thresholds": {"politeness_test": 0.9}}, Path("t.toml"))
    assert parsed.thresholds["politeness_test"] == 0.9
    prompts = PromptSet.load(config.prompts, "en")
    built = build_metrics(["politeness_test"], None, prompts)  # type: ignore[arg-type]
    assert [m.name for m in built] == ["rubric", "politeness_test"] and built[1].threshold == 0.4


def test_a_metric_class_without_its_info_is_refused_with_its_name():
    with pytest.raises(TypeError, match="NoInfo needs a class attribute info"):

        @register_metric
        class NoInfo:
            pass


def test_unknown_bot_type_still_lists_the_builtin_types(tmp_path: Path):
    with pytest.raises(ConfigError, match="type must be one of builtin, http, openai, python, got 'grpc'"):
        parse_bot({"type": "grpc"}, "t.toml: [bot]", tmp_path)


def test_the_primary_metric_name_is_the_registered_primary():
    """PRIMARY_METRIC is a plain name any layer may import; the registry's primary class agrees."""
    assert registry.primary_metric() == registry.PRIMARY_METRIC
