"""Levers for the Japanese expectation checks, on ``sample_data/labelled/expectations.jsonl``:
the bundled Japanese check (baseline), the same with the passages the bot had (``use_passages``),
the English check wording over the Japanese texts (the English template and cut), and a second
phrasing asked as well (``second_phrasing``: met, or broken, when either phrasing says yes; the
wordings are ``prohibition_levers.LEVER_PARTS``). Compare on the choose half; carry only a lever
that beats the baseline there to the report half.

    python bench/expectation_ja_levers.py --split choose --cache /tmp/completions.pkl
    python bench/expectation_ja_levers.py --split report --variants baseline,passages
    python bench/expectation_ja_levers.py --split report --variants baseline --language en   # per kind

The judge is the one ``ragtui run`` uses (the configured judge, or the embedded model).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import sys
from pathlib import Path

from ragtui.cli.model_start import embedded_model
from ragtui.core.config.paths import bundled_dir
from ragtui.core.judge_quality import agreement
from ragtui.core.judge_quality.expectation_agreement import load_expectation_items, select
from ragtui.core.metrics.dialogue.expectation_judge import MET_AT, ExpectationJudge
from ragtui.core.models.endpoints import resolve_endpoint
from ragtui.core.models.llm import ChatClient, ClientPool
from ragtui.core.runs import bootstrap
from ragtui.core.runs.bootstrap import Overrides

sys.path.insert(0, str(Path(__file__).resolve().parent))
from prohibition_levers import CachedClient, with_lever_parts  # noqa: E402

DATA = bundled_dir("sample_data") / "labelled" / "expectations.jsonl"
VARIANTS = ("baseline", "passages", "en-wording", "second")


def make_judge(variant: str, client: ChatClient, prompts: Path, language: str) -> ExpectationJudge:
    judge = ExpectationJudge(client, prompts, "en" if variant == "en-wording" else language)
    judge.use_passages = variant == "passages"
    if variant == "second":
        with_lever_parts(judge).second_phrasing = True
    return judge


async def run(split: str, variants: list[str], out: Path, language: str, cache: Path | None) -> list[dict]:
    config = bootstrap.load_effective_config(Overrides())
    endpoint = resolve_endpoint(config, "judge", None)
    items = [i for i in select(load_expectation_items(DATA).items, split) if i.language == language]
    rows: list[dict] = []
    pool = ClientPool()
    try:
        with embedded_model(config, {"judge": endpoint}):
            client = CachedClient(pool.client_for(endpoint), cache)
            for variant in variants:
                judge = make_judge(variant, client, config.prompts, language)  # type: ignore[arg-type]
                for item in items:
                    expectation, answer = item.to_check()
                    check = await judge.check(expectation, answer)
                    row = {"variant": variant, "id": item.id, "kind": item.kind, "label": item.run_label,
                           "p_yes": check.p_yes, "read": check.read}  # fmt: skip
                    rows.append(row)
                    print(json.dumps(row, ensure_ascii=False), flush=True)
    finally:
        await pool.aclose()
    out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return rows


def report(rows: list[dict]) -> None:
    groups: dict[str, list[dict]] = collections.defaultdict(list)
    for r in rows:
        groups[r["variant"]].append(r)
    kinds = sorted({r["kind"] for r in rows})
    print("| variant | n | acc | κ | AUC | " + " | ".join(kinds) + " |")
    print("|" + "---|" * (5 + len(kinds)))
    for variant, rs in groups.items():
        scored = [r for r in rs if r["p_yes"] is not None]
        predicted = [int(r["p_yes"] >= MET_AT) for r in scored]
        labels = [r["label"] for r in scored]
        acc = sum(p == y for p, y in zip(predicted, labels, strict=True)) / len(scored) if scored else None
        kappa = agreement.cohen_kappa(predicted, labels) if scored else None
        auc = agreement.auc([r["p_yes"] for r in scored], [y == 1 for y in labels]) if scored else None
        cells = []
        for kind in kinds:
            mine = [r for r in scored if r["kind"] == kind]
            cells.append(f"{sum(int(r['p_yes'] >= MET_AT) == r['label'] for r in mine)}/{len(mine)}")
        shown = ["–" if v is None else f"{v:.2f}" for v in (acc, kappa, auc)]
        print(f"| {variant} | {len(scored)} | " + " | ".join(shown) + " | " + " | ".join(cells) + " |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--split", choices=("choose", "report"), default="choose")
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--out", type=Path, default=Path("/tmp/expectation_ja_levers.jsonl"))
    parser.add_argument("--language", default="ja", help="the items' language (baseline per kind for en)")
    parser.add_argument("--cache", type=Path, default=None, help="completions kept between runs (a pickle file)")
    parser.add_argument("--table-only", action="store_true", help="print the table of --out without judging")
    args = parser.parse_args()
    if args.table_only:
        rows = [json.loads(line) for line in args.out.read_text(encoding="utf-8").splitlines() if line.strip()]
    else:
        rows = asyncio.run(run(args.split, args.variants.split(","), args.out, args.language, args.cache))
    report(rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
