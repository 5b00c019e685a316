"""The rubric checks on Japanese turns: English check questions, and per-check few-shot examples.

    python bench/rubric_ja_levers.py --variant fewshot --split choose --db levers.db
    python bench/rubric_ja_levers.py --variant en-questions+fewshot --split choose --db levers.db
    python bench/rubric_ja_levers.py --variant fewshot --split report --db levers.db   # the pick only

Variants (all on the Japanese items of ``sample_data/labelled/rubric.jsonl``, halves as
``ragtui calibrate --split`` cuts them):

- ``baseline``: the bundled ``prompts/ja/judge_probes.toml``;
- ``en-questions``: the Japanese turn checked with English instructions, block names and check
  questions, answered yes / no (``bench/rubric_ja_prompts/en-questions/ja/judge_probes.toml``);
- ``fewshot``: the bundled checks, each preceded by two solved examples of the same check as
  earlier chat turns — the nearest turn of the *choose* half whose answer to that check is yes, and
  the nearest whose answer is no (never the judged turn itself, never a report-half turn);
- ``en-questions+fewshot``: both.

The examples' answers come from the labelled set's ``kind`` (what people wrote each answer to be):
a ``competitor`` answer recommends a competitor, a ``rude_but_right`` one is not polite, an
``honest_unknown`` one says it does not know and its passages lack the answer, and so on
(``KIND_ANSWERS``; a check a kind says nothing certain about takes no example from it). The claim
check's examples are the longest sentence of a ``correct`` turn (supported) and of a
``made_up_unknown`` turn (its passages lack the answer, so what it asserts is unsupported).
"Nearest" is the share of character bigrams of question and reply (``bench_calibration.words``).

Each judged item is stored as a ``ragtui calibrate`` item (``Calibrator``), so a stopped run
continues where it stopped; the figures are the ones ``ragtui calibrate`` prints.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_calibration import words  # noqa: E402

from ragtui.cli.calibrate_command import print_report, split_items  # noqa: E402
from ragtui.cli.model_start import embedded_model  # noqa: E402
from ragtui.core.config.paths import bundled_dir  # noqa: E402
from ragtui.core.content.prompts import PromptTemplate, load_prompt  # noqa: E402
from ragtui.core.judge_quality.calibration import Calibrator, context_for  # noqa: E402
from ragtui.core.judge_quality.labelled import LabelledItem, load_labelled, parse_field_options  # noqa: E402
from ragtui.core.metrics.base import TurnContext  # noqa: E402
from ragtui.core.metrics.rubric import CheckedRubricJudge, CheckQuestion  # noqa: E402
from ragtui.core.metrics.rubric_probes import split_claims  # noqa: E402
from ragtui.core.models.endpoints import resolve_endpoint  # noqa: E402
from ragtui.core.models.llm import ClientPool, Message  # noqa: E402
from ragtui.core.runs import bootstrap  # noqa: E402
from ragtui.core.runs.bootstrap import Overrides  # noqa: E402
from ragtui.core.store.store import Store  # noqa: E402

DATA = bundled_dir("sample_data") / "labelled" / "rubric.jsonl"
EN_QUESTIONS = Path(__file__).resolve().parent / "rubric_ja_prompts" / "en-questions"
VARIANTS = ("baseline", "en-questions", "fewshot", "en-questions+fewshot")
# What each kind of labelled answer says for each check (1 yes, 0 no); a missing check: not certain.
KIND_ANSWERS: dict[str, dict[str, int]] = {
    "correct": {
        "context_answers": 1,
        "says_unknown": 0,
        "addresses": 1,
        "complete": 1,
        "other_company": 0,
        "polite": 1,
    },
    "incomplete": {
        "context_answers": 1,
        "says_unknown": 0,
        "addresses": 1,
        "complete": 0,
        "other_company": 0,
        "polite": 1,
    },
    "contradicts": {"context_answers": 1, "says_unknown": 0, "addresses": 1, "other_company": 0, "polite": 1},
    "off_topic": {"says_unknown": 0, "addresses": 0, "complete": 0, "other_company": 0, "polite": 1},
    "competitor": {"says_unknown": 0, "other_company": 1, "polite": 1},
    "made_up_unknown": {"context_answers": 0, "says_unknown": 0, "other_company": 0, "polite": 1},
    "honest_unknown": {"context_answers": 0, "says_unknown": 1, "other_company": 0, "polite": 1},
    "invented": {"says_unknown": 0, "addresses": 1, "other_company": 0, "polite": 1},
    "rude_but_right": {"context_answers": 1, "says_unknown": 0, "addresses": 1, "other_company": 0, "polite": 0},
}
CLAIM_KINDS = {1: "correct", 0: "made_up_unknown"}


def load_items() -> tuple[list[LabelledItem], dict[str, str]]:
    """The Japanese items in file order, and each item's kind."""
    data = load_labelled(DATA, "rubric", parse_field_options([]), binary=False, label_max=5.0, language="ja")
    kinds = {
        str(r["id"]): r["kind"]
        for r in map(json.loads, DATA.read_text(encoding="utf-8").splitlines())
        if r.get("language") == "ja"
    }
    return [i for i in data.items if i.language == "ja"], kinds


class FewShotChecks(CheckedRubricJudge):
    """The shipped checks, each asked after two solved examples of the same check."""

    def __init__(self, client, template: PromptTemplate, pool: list[tuple[LabelledItem, str]]) -> None:  # type: ignore[no-untyped-def]
        super().__init__(client, template)
        self.pool = pool
        english = "yes" in template.parts["answer"].lower()
        self.words = {1: "yes" if english else "はい", 0: "no" if english else "いいえ"}

    def nearest(self, context: TurnContext, name: str, answer: int) -> tuple[float, LabelledItem] | None:
        key = words(context.question + " " + context.response)
        best: tuple[float, LabelledItem] | None = None
        for item, kind in self.pool:
            if (item.question, item.response) == (context.question, context.response):
                continue  # never the judged turn itself
            if name == "claim":
                if kind != CLAIM_KINDS[answer] or not split_claims(item.response):
                    continue
            elif KIND_ANSWERS.get(kind, {}).get(name) != answer:
                continue
            other = words(item.question + " " + item.response)
            score = len(key & other) / max(1, len(key | other))
            if best is None or score > best[0]:
                best = (score, item)
        return best

    def shot(self, item: LabelledItem, name: str, answer: int) -> list[Message]:
        base = CheckedRubricJudge(self.client, self.template)
        if name == "claim":
            claim = max(split_claims(item.response), key=len)
            shown = self.template.render("on_claim", context=_passages(item), claim=claim)
            messages = base.messages(shown, self.template.parts["claim"])
        else:
            messages = next(q for q in base.questions(context_for(item)) if q.name == name).messages
        return [messages[1], {"role": "assistant", "content": self.words[answer]}]

    def questions(self, context: TurnContext) -> list[CheckQuestion]:
        out = []
        for question in super().questions(context):
            found = [(near, a) for a in (0, 1) if (near := self.nearest(context, question.name, a)) is not None]
            # The nearer example last, next to the turn being judged.
            found.sort(key=lambda f: f[0][0])
            shots = [m for (_, item), a in found for m in self.shot(item, question.name, a)]
            messages = [question.messages[0], *shots, question.messages[1]]
            out.append(replace(question, messages=messages))
        return out


def _passages(item: LabelledItem) -> str:
    from ragtui.core.metrics.rubric import format_passages

    return format_passages(context_for(item).passages, "ja")


def judge_for(variant: str, client, pool: list[tuple[LabelledItem, str]]) -> CheckedRubricJudge:  # type: ignore[no-untyped-def]
    prompts = EN_QUESTIONS if variant.startswith("en-questions") else bundled_dir("prompts")
    template = load_prompt(prompts, "ja", "judge_probes")
    if variant.endswith("fewshot"):
        return FewShotChecks(client, template, pool)
    return CheckedRubricJudge(client, template)


async def run(args: argparse.Namespace) -> None:
    items, kinds = load_items()
    choose = split_items(items, "choose")
    pool = [(item, kinds[item.key]) for item in choose]
    wanted = split_items(items, args.split)
    config = bootstrap.load_effective_config(Overrides(db=args.db))
    endpoint = resolve_endpoint(config, "judge", None)
    store = Store.open(args.db)
    pool_clients = ClientPool()
    try:
        with embedded_model(config, {"judge": endpoint}):
            client = pool_clients.client_for(endpoint)
            judge = judge_for(args.variant, client, pool)
            calibrator = Calibrator(store, "rubric", False, client, lambda language: [judge])  # type: ignore[list-item]
            calibrator.open_run(DATA, {"ja"}, {"variant": args.variant, "split": args.split})
            for n, item in enumerate(calibrator.pending(wanted), start=1):
                judgment = await calibrator.judge(item)
                print(f"{n} {item.key} label {item.label:.2f} score {judgment.score}", flush=True)
            calibrator.finish()
            print_report(calibrator.report(wanted), args.db)
    finally:
        await pool_clients.aclose()
        store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", choices=VARIANTS, required=True)
    parser.add_argument("--split", choices=("choose", "report"), required=True)
    parser.add_argument("--db", type=Path, required=True)
    args = parser.parse_args()
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
