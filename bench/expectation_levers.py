"""The levers of the expectation judge, measured one at a time on a half of the labelled set.

    python bench/expectation_levers.py --split choose                     # starts the embedded model
    python bench/expectation_levers.py --split choose --variants plain,act
    python bench/expectation_levers.py --split report --variants shipped  # report only the chosen one
    python bench/expectation_levers.py --base-url URL --model NAME …

Data: ``sample_data/labelled/expectations.jsonl`` (products kept whole within a half). Variants:

- ``plain``: the starting point — "does the REPLY meet the EXPECTATION?", a prohibition asked
  as "never …" and its answer inverted (``bench/expectation_prompts/plain``);
- ``plain-act``: the same prompt, a prohibition asked about the forbidden act itself;
- ``shipped``: the bundled prompt (the answer, then "the ANSWER <expectation>." as a statement to
  check), prohibitions asked about the act;
- ``shipped+passages``: the same with the passage the bot had;
- ``shipped+split``: a two-part expectation ("… and …") asked part by part, P = the smallest;
- ``shipped+code``: what overlap decides safely decided in code (``expectation_overlap``).

Every judged item is appended to ``--out`` (JSONL) and reused by later runs of the same variant,
so a run can be stopped and continued. The table is printed from that file.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench_calibration import endpoint_url  # noqa: E402  (the same embedded model or --base-url)

from ragtui.core.judge_quality import agreement  # noqa: E402
from ragtui.core.judge_quality.expectation_agreement import ExpectationItem, load_expectation_items, select  # noqa: E402
from ragtui.core.metrics.dialogue import expectation_overlap  # noqa: E402
from ragtui.core.metrics.dialogue.expectation_judge import MET_AT, ExpectationJudge  # noqa: E402
from ragtui.core.metrics.dialogue.expectation_parts import split_parts  # noqa: E402
from ragtui.core.models.endpoints import Endpoint  # noqa: E402
from ragtui.core.models.llm import ChatClient, ClientPool  # noqa: E402
from ragtui.core.types.expectations import ExpectationCheck  # noqa: E402

DATA = ROOT / "sample_data" / "labelled" / "expectations.jsonl"
PLAIN = ROOT / "bench" / "expectation_prompts" / "plain"
VARIANTS = ("plain", "plain-act", "shipped", "shipped+passages", "shipped+split", "shipped+code")


def make_judge(variant: str, client: ChatClient, language: str) -> ExpectationJudge:
    judge = ExpectationJudge(client, PLAIN if variant.startswith("plain") else None, language)
    if variant == "plain-act":
        # The plain template, but the prohibition's line names the act itself.
        parts = dict(judge.template.parts)
        parts["must_not"] = (
            parts["must_not"].replace("never {{act}}", "{{act}}").replace("「{{act}}」ことはしない", "{{act}}")
        )
        judge.template = dataclasses.replace(judge.template, parts=parts)
    judge.use_passages = variant == "shipped+passages"
    # The code and split levers are applied here (judge_item), one at a time, never by the judge.
    judge.decide_in_code = False
    judge.split_parts = False
    return judge


async def judge_item(variant: str, judge: ExpectationJudge, item: ExpectationItem) -> tuple[float | None, str, int]:
    """(P in the label's sense, how it was read, judge calls made)."""
    expectation, answer = item.to_check()
    if variant == "shipped+code":
        decided = expectation_overlap.decide(expectation, answer.answer, item.language)
        if decided is not None:
            return decided, "code", 0
    if variant == "shipped+split" and expectation.polarity == "must":
        parts = split_parts(expectation.text, item.language)
        if len(parts) > 1:
            checks = [await judge.check(dataclasses.replace(expectation, text=p), answer) for p in parts]
            ps = [c.p_yes for c in checks]
            if any(p is None for p in ps):
                return None, "none", len(checks)
            return min(float(p) for p in ps if p is not None), checks[0].read, len(checks)
    if variant == "plain" and expectation.polarity == "must_not":
        check: ExpectationCheck = await judge.check(expectation, answer)
        # "never <act>" met → the act not done: invert to P(done).
        return (None if check.p_yes is None else 1.0 - check.p_yes), check.read, 1
    check = await judge.check(expectation, answer)
    return check.p_yes, check.read, 1


def unchanged_by(variant: str, item: ExpectationItem) -> bool:
    """A code or split lever that leaves this item as ``shipped`` asks it: reuse that answer."""
    expectation, answer = item.to_check()
    if variant == "shipped+code":
        return expectation_overlap.decide(expectation, answer.answer, item.language) is None
    if variant == "shipped+split":
        return expectation.polarity != "must" or len(split_parts(expectation.text, item.language)) == 1
    return False


def table(rows: list[dict], split: str) -> str:
    lines = [
        f"half={split}  met at P ≥ {MET_AT}",
        "variant            lang  n   acc    kappa  AUC    P|1   P|0   calls",
    ]
    for variant in VARIANTS:
        for language in ("en", "ja"):
            got = [r for r in rows if r["variant"] == variant and r["language"] == language and r["split"] == split]
            if not got:
                continue
            scored = [r for r in got if r["p"] is not None]
            predicted = [int(r["p"] >= MET_AT) for r in scored]
            labels = [r["label"] for r in scored]
            stats = agreement.binary_agreement(predicted, labels)
            auc = agreement.auc([r["p"] for r in scored], [y == 1 for y in labels])
            pos = [r["p"] for r in scored if r["label"] == 1]
            neg = [r["p"] for r in scored if r["label"] == 0]
            lines.append(
                f"{variant:<18} {language:<4} {len(got):<3} {fmt(stats.accuracy)}  {fmt(stats.kappa)}  {fmt(auc)}"
                f"  {fmt(sum(pos) / len(pos) if pos else None, 2)}  {fmt(sum(neg) / len(neg) if neg else None, 2)}"
                f"  {sum(r['calls'] for r in got)}"
            )
    return "\n".join(lines)


def kinds(rows: list[dict], variant: str, split: str) -> str:
    out = [f"{variant}, {split}: right / n per kind and language"]
    for kind in sorted({r["kind"] for r in rows}):
        cells = []
        for language in ("en", "ja"):
            got = [
                r
                for r in rows
                if r["variant"] == variant and r["kind"] == kind and r["language"] == language and r["split"] == split
            ]
            right = sum(1 for r in got if r["p"] is not None and int(r["p"] >= MET_AT) == r["label"])
            mean = [r["p"] for r in got if r["p"] is not None]
            cells.append(f"{language} {right}/{len(got)} (P {fmt(sum(mean) / len(mean) if mean else None, 2)})")
        out.append(f"  {kind:<20} " + "  ".join(cells))
    return "\n".join(out)


def fmt(value: float | None, digits: int = 3) -> str:
    return "  —  " if value is None else f"{value:.{digits}f}"


async def run(args: argparse.Namespace, base_url: str, model: str) -> list[dict]:
    items = select(load_expectation_items(args.data).items, args.split)
    done: list[dict] = []
    if args.out.exists():
        done = [json.loads(line) for line in args.out.read_text(encoding="utf-8").splitlines() if line.strip()]
    seen = {(r["variant"], r["id"]) for r in done}
    endpoint = Endpoint(
        role="judge",
        base_url=base_url,
        model=model,
        temperature=0.0,
        api_key_env="",
        api_key=os.environ.get("RAGTUI_EMBEDDED_TOKEN") or "none",
        timeout=300,
    )
    pool = ClientPool()
    client = pool.client_for(endpoint)
    try:
        with args.out.open("a", encoding="utf-8") as out:
            for variant in args.variants.split(","):
                judges = {lang: make_judge(variant, client, lang) for lang in ("en", "ja")}
                started = time.monotonic()
                limit = asyncio.Semaphore(args.concurrency)

                async def one(
                    variant: str, item: ExpectationItem, judges: dict[str, ExpectationJudge], limit: asyncio.Semaphore
                ) -> None:
                    shipped = next((r for r in done if r["variant"] == "shipped" and r["id"] == item.id), None)
                    if shipped is not None and unchanged_by(variant, item):
                        p, read, calls = shipped["p"], shipped["read"], shipped["calls"]
                    else:
                        async with limit:
                            p, read, calls = await judge_item(variant, judges[item.language], item)
                    row = {
                        "variant": variant,
                        "id": item.id,
                        "language": item.language,
                        "split": item.split,
                        "kind": item.kind,
                        "label": item.run_label,  # the way round a run asks it
                        "p": p,
                        "read": read,
                        "calls": calls,
                    }
                    done.append(row)
                    out.write(json.dumps(row, ensure_ascii=False) + "\n")
                    out.flush()

                await asyncio.gather(*(one(variant, i, judges, limit) for i in items if (variant, i.id) not in seen))
                print(f"done {variant} {args.split} in {time.monotonic() - started:.0f} s", flush=True)
    finally:
        await pool.aclose()
    return done


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--split", choices=("choose", "report"), default="choose")
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument(
        "--out", type=Path, default=Path("/tmp/expectation_levers.jsonl"), help="results, reused by later runs"
    )
    parser.add_argument("--kinds", help="also print per-kind counts for these variants (comma-separated)")
    parser.add_argument("--concurrency", type=int, default=2, help="checks in flight at once")
    parser.add_argument("--base-url")
    parser.add_argument("--model", default="judge")
    args = parser.parse_args()
    with endpoint_url(args) as (base_url, model):
        rows = asyncio.run(run(args, base_url, model))
    print(table(rows, args.split))
    for variant in (args.kinds or "").split(","):
        if variant:
            print(kinds(rows, variant, args.split))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
