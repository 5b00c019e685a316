"""``ragtui.plugin`` is the one module a plugin imports: the test plugin and the worked example
import nothing else of ragtui; its API is versioned; ragtui's own metrics, bot types and formats
arrive through the same entry points a plugin's do; a verdict reads typed; gate roles are the
metric's to declare, one metric a role."""

from __future__ import annotations

import ast
import tomllib
from importlib.metadata import entry_points
from pathlib import Path

import pytest

import ragtui.plugin as plugin
from ragtui.core.registry import bots, conversation_loaders, loaders
from ragtui.core.registry import metrics as registry
from ragtui.core.registry.plugins import LoadOnce, MissingBuiltins, is_own
from ragtui.core.types.judgments import Judgment

REPO = Path(__file__).resolve().parents[2]
PLUGIN_SOURCES = [
    REPO / "tests" / "plugins" / "signoff.py",
    *sorted((REPO / "examples" / "ragtui-plugin-example" / "ragtui_plugin_example").glob("*.py")),
]
GROUPS = ("ragtui.metrics", "ragtui.bots", "ragtui.loaders", "ragtui.conversations")


def ragtui_imports(path: Path) -> set[str]:
    """Every ragtui module ``path`` imports."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
    return {name for name in found if name == "ragtui" or name.startswith("ragtui.")}


@pytest.mark.parametrize("path", PLUGIN_SOURCES, ids=lambda p: p.name)
def test_a_plugin_imports_only_the_public_module(path: Path):
    assert ragtui_imports(path) <= {"ragtui.plugin"}


def test_the_import_check_sees_a_deep_import(tmp_path: Path):
    sample = tmp_path / "deep.py"
    sample.write_text("from ragtui.plugin import Judgment\nfrom ragtui.core.registry.metrics import TURN\n")
    assert ragtui_imports(sample) == {"ragtui.plugin", "ragtui.core.registry.metrics"}


def test_every_name_the_module_promises_is_there():
    assert all(hasattr(plugin, name) for name in plugin.__all__)
    assert {"MetricInfo", "Judgment", "Verdict", "BotType", "DocumentLoader", "ConversationLoader"} <= set(
        plugin.__all__
    )


def test_the_api_version_is_checked():
    major, minor = (int(p) for p in plugin.PLUGIN_API_VERSION.split("."))
    plugin.require_api(f"{major}.0")
    plugin.require_api(plugin.PLUGIN_API_VERSION)
    with pytest.raises(plugin.PluginAPIError, match="needs ragtui plugin API"):
        plugin.require_api(f"{major}.{minor + 1}")  # a newer minor than this ragtui serves
    with pytest.raises(plugin.PluginAPIError):
        plugin.require_api(f"{major + 1}.0")


def test_the_builtins_are_ragtuis_own_entry_points_as_pyproject_declares_them():
    """The installed metadata matches pyproject.toml (else: reinstall), and each entry point is
    what its registry holds under that name."""
    declared = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["entry-points"]
    for group in GROUPS:
        installed = {e.name: e.value for e in entry_points(group=group) if is_own(e)}
        assert installed == declared[group], f"{group}: installed metadata differs from pyproject.toml"
    for entry in (e for e in entry_points(group="ragtui.metrics") if is_own(e)):
        assert registry.find_metric(entry.name) is entry.load()
    for entry in (e for e in entry_points(group="ragtui.bots") if is_own(e)):
        assert bots.find_bot_type(entry.name) is entry.load()
    assert {e.name for e in entry_points(group="ragtui.loaders") if is_own(e)} <= {x.name for x in loaders.loaders()}
    own_formats = {e.name for e in entry_points(group="ragtui.conversations") if is_own(e)}
    assert own_formats <= {x.name for x in conversation_loaders.conversation_loaders()}


def test_metadata_without_the_builtins_is_one_clear_error():
    registered: list[object] = []
    load = LoadOnce("ragtui.no-such-group", "widget", registered.append)
    with pytest.raises(MissingBuiltins, match="reinstall ragtui"):
        load()
    assert registered == []


def test_a_verdict_reads_typed_from_its_details():
    verdict = plugin.Verdict("signoff_check", 0.5, outcome="signed_off", conclusion="checked", threshold=0.4)
    judgment = Judgment("signoff_check", 0.5, {**verdict.details(), "ended": 1})
    assert judgment.verdict == verdict
    unscored = Judgment("signoff_check", None, {"outcome": "signed_off", "skipped": True, "threshold": True})
    assert (unscored.verdict.outcome, unscored.verdict.skipped, unscored.verdict.threshold) == (None, True, None)


def test_a_gate_role_is_declared_once():
    with pytest.raises(ValueError, match="gates must be one of"):
        plugin.MetricInfo("x", kind=plugin.DIALOGUE, gates="score-rate")
    with pytest.raises(ValueError, match="success_outcomes"):
        plugin.MetricInfo("x", kind=plugin.DIALOGUE, gates=plugin.RESOLUTION_RATE)
    assert registry.gate_metric(plugin.RESOLUTION_RATE) == "resolution"
    assert registry.gate_metric(plugin.EXPECTATION_RATE) == "expectations"

    class Rival:
        info = plugin.MetricInfo(
            "rival", kind=plugin.DIALOGUE, gates=plugin.RESOLUTION_RATE, success_outcomes=frozenset({"ok"})
        )

        @classmethod
        def build(cls, judge: object, prompts_dir: object, language: str, settings: object) -> Rival:
            return cls()

    with pytest.raises(ValueError, match="already does"):
        registry.register_metric(Rival)
    assert registry.find_metric("rival") is None
