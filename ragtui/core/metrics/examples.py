"""Few-shot examples for a metric's steps: ``prompts/<language>/examples/<metric>.jsonl``.

One JSON object per line::

    {"step": "user", "input": {"question": "…", "reference": "…", "response": "…"},
     "output": {"justification": "…", "score": 4}}

``step`` names the template key the example belongs to (``user`` for single-step metrics;
``statements`` / ``verdicts`` / ``reason`` for multi-step ones). ``input`` must fill exactly that
key's slots, so an example is checked against the template it will be rendered with, and every
problem names the file and the line. Blank lines and lines starting with ``#`` are skipped. The
file is optional: without it the metric runs zero-shot.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..content.prompts import PromptTemplate, load_prompt, prompt_schema
from ..types.errors import ConfigError

MAX_EXAMPLES = 16  # more only lengthens every prompt; the 1.5B model gains nothing past ~8


@dataclass(frozen=True)
class Example:
    step: str
    inputs: dict[str, str]
    output: dict[str, Any]

    @property
    def output_json(self) -> str:
        return json.dumps(self.output, ensure_ascii=False)


def examples_path(prompts_dir: Path, language: str, metric: str) -> Path:
    return prompts_dir / language / "examples" / f"{metric}.jsonl"


def template_and_examples(
    prompts_dir: Path, language: str, metric: str, examples_file: Path | None = None
) -> tuple[PromptTemplate, list[Example]]:
    """A judged metric's ``metric_<name>`` template and its few-shot examples (``examples_file``
    instead of prompts/<lang>/examples/<name>.jsonl when given), both validated."""
    kind = f"metric_{metric}"
    template = load_prompt(prompts_dir, language, kind)
    return template, load_examples(examples_file or examples_path(prompts_dir, language, metric), kind)


def load_examples(path: Path, kind: str) -> list[Example]:
    """Examples for the prompt ``kind`` from ``path``; [] when the file does not exist."""
    if not path.is_file():
        return []
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read few-shot examples {path}: {exc}", "save it as UTF-8") from None
    examples = [
        parse_example(line, kind, f"{path}:{number}")
        for number, line in enumerate(lines, start=1)
        if line.strip() and not line.lstrip().startswith("#")
    ]
    if len(examples) > MAX_EXAMPLES:
        raise ConfigError(
            f"{path} has {len(examples)} examples", f"keep at most {MAX_EXAMPLES}: each one lengthens every prompt"
        )
    return examples


def parse_example(line: str, kind: str, where: str) -> Example:
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{where}: not valid JSON ({exc.msg})", "one JSON object per line") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{where}: expected a JSON object")
    spec = prompt_schema(kind)
    step = data.get("step", "user")
    if step not in spec or step in ("system", "retry"):
        steps = ", ".join(k for k in spec if k not in ("system", "retry"))
        raise ConfigError(f"{where}: unknown step {step!r}", f"steps of {kind}: {steps}")
    inputs, output = data.get("input"), data.get("output")
    if not isinstance(inputs, dict) or not all(isinstance(v, str) for v in inputs.values()):
        raise ConfigError(f"{where}: 'input' must be an object of strings")
    if set(inputs) != spec[step]:
        raise ConfigError(f"{where}: 'input' must have exactly the keys {sorted(spec[step])}, got {sorted(inputs)}")
    if not isinstance(output, dict):
        raise ConfigError(f"{where}: 'output' must be a JSON object (the reply the judge should give)")
    return Example(step, inputs, output)
