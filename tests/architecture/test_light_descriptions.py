"""Every metric ragtui ships has a light description beside its judge: ``<judge module>_info``
(``rubric_info``, ``dialogue/resolution_info`` …) holds its ``MetricInfo`` — label, columns,
gate role, success outcomes — and whatever a view reads of it (the rubric's criteria,
resolution's outcome words), and the judge's class takes its ``info`` from there. A view that
needs a metric's description imports that module; importing every one of them, in a fresh
interpreter, loads no model client (openai, httpx, ``core.models.llm``) and no judge module."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys

from ragtui.core.registry import metrics as registry

# What a description must not pull in: the model clients and the module that drives them.
CLIENTS = ("openai", "httpx", "ragtui.core.models.llm")


def builtin_classes() -> list[type[registry.MetricClass]]:
    """Every metric class ragtui itself ships, as the registry loads them (plugins left out)."""
    return [cls for cls in registry.metric_classes() if cls.__module__.startswith("ragtui.")]


def description_of(cls: type[registry.MetricClass]) -> str:
    return f"{cls.__module__}_info"


def test_every_builtin_metric_takes_its_info_from_its_description():
    classes = builtin_classes()
    assert {"rubric", "faithfulness", "trust", "resolution", "expectations"} <= {c.info.name for c in classes}
    for cls in classes:
        description = importlib.import_module(description_of(cls))
        assert description.INFO is cls.info, cls.info.name


def test_the_descriptions_import_no_model_client_and_no_judge():
    classes = builtin_classes()
    descriptions = sorted({description_of(cls) for cls in classes})
    judges = sorted({cls.__module__ for cls in classes})
    code = (
        "import importlib, json, sys\n"
        f"for name in {descriptions!r}:\n    importlib.import_module(name)\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    loaded = set(json.loads(result.stdout.strip().splitlines()[-1]))
    assert set(descriptions) <= loaded  # the probe imported what it was asked to
    heavy = sorted(
        name for name in loaded if name in judges or any(name == c or name.startswith(c + ".") for c in CLIENTS)
    )
    assert heavy == []


def test_the_check_sees_a_judge_pulled_in():
    code = (
        "import sys, ragtui.core.metrics.dialogue.resolution\nprint('httpx' in sys.modules or 'openai' in sys.modules)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.stdout.strip() == "True"  # a judge does load the client: the check above is not vacuous
