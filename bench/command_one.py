"""README command 1 (``ragtui run -s id-linking -p calm --max-turns 3``) in this process, every
model call recorded: role and step, prompt tokens the embedded llama.cpp server computed and
reused (its own ``timings``), output tokens, when the call started, its first token, its end.

Run by ``bench_embedded.py --baseline-ref`` once with a baseline checkout's code and once with
the current code (``PYTHONPATH`` picks the checkout), so both are measured the same way; it
uses only what every version of ragtui has (``ChatClient.complete`` and ``cli.main.main``).
Writes the figures as JSON to the path given.

Usage: ``python bench/command_one.py OUT.json DB [--turns 3]``.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

STARTED = time.perf_counter()


def main() -> int:
    out, db = Path(sys.argv[1]), sys.argv[2]
    turns = sys.argv[sys.argv.index("--turns") + 1] if "--turns" in sys.argv else "3"
    from ragtui.cli.main import main as ragtui_main
    from ragtui.core.models import llm

    calls: list[dict[str, Any]] = []
    original = llm.ChatClient.complete

    async def complete(client: llm.ChatClient, messages: Any, **kwargs: Any) -> llm.Completion:
        seen: dict[str, Any] = {}
        previous = kwargs.pop("on_chunk", None)

        def on_chunk(chunk: dict[str, Any]) -> None:
            if isinstance(chunk.get("timings"), dict):
                seen["timings"] = chunk["timings"]
            if previous is not None:
                previous(chunk)

        schema = kwargs.get("json_schema") or {}
        # The simulator's check asks with a schema titled simulator_*, in every version.
        step = "check" if str(schema.get("title", "")).startswith("simulator_") else client.endpoint.role
        first = messages[0] if messages else {}
        system = str(first.get("content", ""))[:80] if first.get("role") == "system" else ""
        begun = time.perf_counter() - STARTED
        result = await original(client, messages, on_chunk=on_chunk, **kwargs)
        timings = seen.get("timings") or {}
        calls.append(
            {
                "role": client.endpoint.role,
                "step": step,
                "computed": timings.get("prompt_n"),
                "reused": timings.get("cache_n"),
                "output": timings.get("predicted_n", result.completion_tokens),
                "start": begun,
                "first_token": result.first_token_ms / 1000 if result.first_token_ms is not None else None,
                "seconds": result.latency_ms / 1000,
                "prompt_ms": timings.get("prompt_ms"),
                "system": system,  # tells a turn's rubric checks from the dialogue verdicts
            }
        )
        return result

    llm.ChatClient.complete = complete  # type: ignore[method-assign,assignment]
    code = ragtui_main(["run", "-s", "id-linking", "-p", "calm", "--max-turns", turns, "--db", db])
    wall = time.perf_counter() - STARTED
    import ragtui

    figures = {"code": code, "wall": wall, "calls": calls, "module": ragtui.__file__}
    out.write_text(json.dumps(figures), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
