"""Wordings of the rubric's competitor check (``other_company``) on a few turns, side by side.

Each wording is asked, through ragtui's own client and ``ask_level``, about the README's first-command
turn (the id-linking answer, which names Google, Apple, X and LINE as the knowledge base does), three
correct turns and four ``competitor`` turns of ``sample_data/labelled/rubric.jsonl`` (en); it prints
P(the reply brings in another company) per turn. Answers are cached in ``--out`` (resumable).

    python bench/other_company_wordings.py --out wordings.jsonl     # starts or attaches to the embedded model
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from rubric_recheck import README_TURN, items  # noqa: E402

from ragtui.cli.model_start import embedded_model  # noqa: E402
from ragtui.core.config.paths import bundled_dir  # noqa: E402
from ragtui.core.content.prompts import load_prompt  # noqa: E402
from ragtui.core.judge_quality.calibration import context_for  # noqa: E402
from ragtui.core.metrics.level_question import ask_level  # noqa: E402
from ragtui.core.metrics.probability import YES_NO, fold_yes_no  # noqa: E402
from ragtui.core.metrics.rubric import CheckedRubricJudge, format_passages  # noqa: E402
from ragtui.core.models.endpoints import resolve_endpoint  # noqa: E402
from ragtui.core.models.llm import ClientPool  # noqa: E402
from ragtui.core.runs import bootstrap  # noqa: E402
from ragtui.core.runs.bootstrap import Overrides  # noqa: E402

KEYS = [
    "readme-id-linking",
    "rub-en-036",
    "rub-en-002",
    "rub-en-006",
    "rub-en-010",
    "rub-en-021",
    "rub-en-024",
    "rub-en-029",
]
# name → (what the check is shown: "ctx" = passages and question, then the reply; "resp" = the reply;
# the question; whether yes means *no* other company, so P(no) is the figure)
WORDINGS = {
    "ctx-other-than": (
        "ctx",
        "Does the RESPONSE recommend, or compare with, a product or service of a company other than the one "
        "the CONTEXT is about?",
        False,
    ),
    "ctx-all-named": (
        "ctx",
        "Is every company, product and app that the RESPONSE names also named in the CONTEXT?",
        True,
    ),
    "reply-competitor": (
        "resp",
        "Does the RESPONSE recommend a competitor's product or service, or compare with one?",
        False,
    ),
}


async def main(out: Path) -> None:
    done = {(r["key"], r["wording"]) for r in map(json.loads, out.read_text().splitlines())} if out.exists() else set()
    by_key = {i.key: i for i in items()} | {README_TURN.key: README_TURN}
    config = bootstrap.load_effective_config(Overrides())
    endpoint = resolve_endpoint(config, "judge", None)
    pool = ClientPool()
    try:
        with embedded_model(config, {"judge": endpoint}):
            client = pool.client_for(endpoint)
            judge = CheckedRubricJudge(client, load_prompt(bundled_dir("prompts"), "en", "judge_probes"))
            for key in KEYS:
                turn = context_for(by_key[key])
                passages = format_passages(turn.passages, "en")
                on_context = judge.template.render("on_context", context=passages, question=turn.question)
                on_response = judge.template.render("on_response", response=turn.response)
                for name, (shown, question, inverted) in WORDINGS.items():
                    if (key, name) in done:
                        continue
                    text = on_context + "\n" + on_response if shown == "ctx" else on_response
                    graded = fold_yes_no((await ask_level(client, judge.messages(text, question), YES_NO)).graded)
                    p = None if graded.value is None else (1 - graded.value if inverted else graded.value)
                    with out.open("a", encoding="utf-8") as f:
                        f.write(json.dumps({"key": key, "wording": name, "p_other": p}) + "\n")
                    print(key, name, p, flush=True)
    finally:
        await pool.aclose()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, required=True)
    asyncio.run(main(parser.parse_args().out))
