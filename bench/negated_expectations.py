"""Prohibitions written under ``expect`` ("does not promise a refund", 「勧めないこと」): asked as
written, or asked about the act itself with the answer read the other way — on
``sample_data/labelled/expectations_negated.jsonl`` (label 1 = the rule was kept). ``act`` is how a
run reads them (``ExpectationItem.to_check``, the scenario files' own function); ``as-written``
asks the sentence as a plain ``must``, a path no run takes since the act reading shipped, kept
only to compare the two.

    python bench/negated_expectations.py --split choose              # both variants, the choose half
    python bench/negated_expectations.py --split report --variants act

The judge is the one ``ragtui run`` uses (the configured judge, or the embedded model with its
per-language cut), one check per item. Prints accuracy, Cohen's κ and AUC of P(kept) per language,
and per kind how many were read as labelled (kept = P(kept) ≥ 0.5).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import dataclasses
import json
from collections.abc import AsyncIterator, Callable
from pathlib import Path

from ragtui.cli.model_start import embedded_model
from ragtui.core.config.paths import bundled_dir
from ragtui.core.config.settings import Config
from ragtui.core.judge_quality import agreement
from ragtui.core.judge_quality.expectation_agreement import load_expectation_items, select
from ragtui.core.metrics.dialogue.expectation_judge import MET_AT, ExpectationJudge
from ragtui.core.models.endpoints import resolve_endpoint
from ragtui.core.models.llm import ChatClient, ClientPool
from ragtui.core.runs import bootstrap
from ragtui.core.runs.bootstrap import Overrides
from ragtui.core.types.expectations import Expectation

DATA = bundled_dir("sample_data") / "labelled" / "expectations_negated.jsonl"
VARIANTS = ("as-written", "act")


@contextlib.asynccontextmanager
async def judge_client(
    wrap: Callable[[ChatClient], ChatClient] | None = None,
) -> AsyncIterator[tuple[Config, ChatClient]]:
    """The judge ``ragtui run`` uses (the embedded model started or attached when it is the one)."""
    config = bootstrap.load_effective_config(Overrides())
    endpoint = resolve_endpoint(config, "judge", None)
    pool = ClientPool()
    try:
        with embedded_model(config, {"judge": endpoint}):
            client = pool.client_for(endpoint)
            yield config, wrap(client) if wrap else client
    finally:
        await pool.aclose()


def asked(expectation: Expectation, variant: str) -> Expectation:
    """As a run reads the rule (``act``: ``to_check`` gives a prohibition of its act, read the
    other way), or as written (a plain ``must``, no longer a run's reading)."""
    return expectation if variant == "act" else dataclasses.replace(expectation, polarity="must")


async def run(split: str, variants: list[str], out: Path) -> list[dict]:
    items = select(load_expectation_items(DATA).items, split)
    rows: list[dict] = []
    async with judge_client() as (config, client):
        judges = {lang: ExpectationJudge(client, config.prompts, lang) for lang in ("en", "ja")}
        for variant in variants:
            for item in items:
                expectation, answer = item.to_check()
                check = await judges[item.language].check(asked(expectation, variant), answer)
                p = check.p_yes
                kept = None if p is None else (1 - p if variant == "act" else p)
                row = {"variant": variant, "id": item.id, "language": item.language, "kind": item.kind,
                       "label": item.label, "p_kept": kept, "read": check.read}  # fmt: skip
                rows.append(row)
                print(json.dumps(row, ensure_ascii=False), flush=True)
    out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return rows


def report(rows: list[dict]) -> None:
    groups: dict[tuple[str, str], list[dict]] = collections.defaultdict(list)
    for r in rows:
        groups[(r["variant"], r["language"])].append(r)
    print("| variant | lang | n | acc | κ | AUC | " + " | ".join(("kept", "absent", "broken")) + " |")
    print("|---|---|---|---|---|---|---|---|---|")
    for (variant, language), rs in sorted(groups.items()):
        scored = [r for r in rs if r["p_kept"] is not None]
        predicted = [int(r["p_kept"] >= MET_AT) for r in scored]
        labels = [r["label"] for r in scored]
        acc = sum(p == y for p, y in zip(predicted, labels, strict=True)) / len(scored) if scored else None
        kappa = agreement.cohen_kappa(predicted, labels) if scored else None
        auc = agreement.auc([r["p_kept"] for r in scored], [y == 1 for y in labels]) if scored else None
        cells = []
        for kind in ("negated_kept", "negated_absent", "negated_broken"):
            mine = [r for r in scored if r["kind"] == kind]
            right = sum(int(r["p_kept"] >= MET_AT) == r["label"] for r in mine)
            cells.append(f"{right}/{len(mine)}")
        fmt = lambda v: "–" if v is None else f"{v:.2f}"  # noqa: E731
        print(
            f"| {variant} | {language} | {len(scored)} | {fmt(acc)} | {fmt(kappa)} | {fmt(auc)} | "
            + " | ".join(cells)
            + " |"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--split", choices=("choose", "report"), default="choose")
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--out", type=Path, default=Path("/tmp/negated_expectations.jsonl"))
    parser.add_argument("--table-only", action="store_true", help="print the table of --out without judging")
    args = parser.parse_args()
    if args.table_only:
        rows = [json.loads(line) for line in args.out.read_text(encoding="utf-8").splitlines() if line.strip()]
    else:
        rows = asyncio.run(run(args.split, args.variants.split(","), args.out))
    report(rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
