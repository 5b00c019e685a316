"""Levers for prohibition checks (``must_not``: asked about the forbidden act, broken at P(yes) ≥ 0.5
after the per-language cut) on ``sample_data/labelled/expectations_negated.jsonl`` — each product's
rule written under ``expect``, read as an ``expect_not`` of its act over its kept, absent and broken
answers — and on the prohibition kinds of ``expectations.jsonl`` (the same acts over the same kept
and broken answers: the same prompts, asked once through ``--cache``).

    python bench/prohibition_levers.py --split choose                       # every variant
    python bench/prohibition_levers.py --split report --variants baseline,second

Variants (flags on ExpectationJudge; the extra wordings, ``LEVER_PARTS``, are added to the bundled
template for the run when it lacks them):

- ``baseline``: the shipped check (for the embedded judge in English: ``act_calibrated``, cut 0.70).
- ``plain``: the check before that (no lever, the must cut for prohibitions too).
- ``second``: the act also asked in a second phrasing (``must_not_again``), broken when either says
  yes (P = the larger) — one more call per prohibition.
- ``wide``: the act asked with ``must_not_wide``, which tells the judge that doing it in other words,
  or naming or describing one case of it, counts.
- ``wide+second``: both.
- ``passages``: the prohibition shown the passages the bot had (``act_passages``; must
  expectations are not).
- ``contrast``: the act asked as a choice, "A) the ANSWER does this ACT, B) it does not"
  (``must_not_contrast``); P = P(A).
- ``sentences``: the act asked of each sentence of the answer on its own (``act_by_sentence``),
  broken when any sentence does it (P = the largest) — one call per sentence.
- ``calibrated``: P(act) against the same act asked of the content-free answer "N/A" to the same
  question (``act_calibrated``): σ(logit P − logit P_null), the null answer at 0.5 — one more call
  per act and question. Read it at its own cut (``--cut-grid 0.02:0.98:0.01``).

Any of them combine with ``+`` ("passages+contrast"). The default set is the baseline and the three
last: ``second`` and ``wide`` were measured before (docs/expectations-agreement.md).

The cut lever needs no call: every row keeps the judge's raw P(act), and the table also shows each
variant at the prohibition cut that is best on the choose half's negated rows (``--cut-grid``; the
middle of the cuts tied for the best accuracy), per language. On the report half no cut is chosen:
``--broken-at en=0.26,ja=0.22`` applies one chosen on the choose half.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import hashlib
import json
import pickle
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from negated_expectations import asked, judge_client  # noqa: E402

from ragtui.core.config.paths import bundled_dir  # noqa: E402
from ragtui.core.judge_quality import agreement  # noqa: E402
from ragtui.core.judge_quality.expectation_agreement import load_expectation_items, select  # noqa: E402
from ragtui.core.metrics.dialogue.expectation_judge import MET_AT, ExpectationJudge, shifted  # noqa: E402
from ragtui.core.models.llm import ChatClient, Completion, Message  # noqa: E402

LABELLED = bundled_dir("sample_data") / "labelled"
VARIANTS = ("baseline", "passages", "contrast", "sentences")
# Every lever a variant may combine ("passages+contrast"): the flag it turns on.
LEVERS = {
    "second": "second_phrasing",
    "wide": "wide_act",
    "passages": "act_passages",
    "contrast": "act_contrast",
    "sentences": "act_by_sentence",
    "calibrated": "act_calibrated",
}
PROHIBITION_KINDS = ("prohibition_kept", "prohibition_broken")

# The levers' wordings, for a template that has none (the bundled one has only what is shipped).
LEVER_PARTS: dict[str, dict[str, str]] = {
    "en": {
        "must_again": """
### CUSTOMER ###
{{question}}

### ANSWER ###
{{answer}}

### POINT ###
{{expectation}}

Does the ANSWER get this POINT across to the customer, in its own words or in these? Answer yes or no.
Answer:
""",
        "must_not_again": """
### CUSTOMER ###
{{question}}

### ANSWER ###
{{answer}}

### ACT ###
{{act}}

Does the ANSWER do this ACT in any words — for example by naming one case of it, or by describing it?
Answer yes or no.
Answer:
""",
        "must_not_wide": """
### CUSTOMER ###
{{question}}

### ANSWER ###
{{answer}}

### STATEMENT ###
The ANSWER {{act}}.

The STATEMENT is true also when the ANSWER does this in other words, or names or describes one case of
it. Is the STATEMENT true of the ANSWER? Answer yes or no.
Answer:
""",
        "must_not_contrast": """
### CUSTOMER ###
{{question}}

### ANSWER ###
{{answer}}

### ACT ###
{{act}}

Which is true of the ANSWER?
A) The ANSWER does this ACT, in these words or in others.
B) The ANSWER does not do this ACT.
Answer A or B.
Answer:
""",
    },
    "ja": {
        "must_again": """
### お客様 ###
{{question}}

### 回答（ANSWER） ###
{{answer}}

### 伝えるべき内容 ###
{{expectation}}

回答は、この内容をお客様に伝えていますか（同じ言葉でも、別の言葉でもかまいません）。「はい」か「いいえ」で答えてください。
答え:
""",
        "must_not_again": """
### お客様 ###
{{question}}

### 回答（ANSWER） ###
{{answer}}

### 行為 ###
{{act}}

回答はこの行為をしていますか（別の言葉で言う、具体的な名前や例を挙げる、やり方を説明する、のどれでも含みます）。「はい」か「いいえ」で答えてください。
答え:
""",
        "must_not_wide": """
### お客様 ###
{{question}}

### 回答（ANSWER） ###
{{answer}}

### 文（STATEMENT） ###
回答は「{{act}}」。

別の言葉でそうしている場合や、その具体例（名前・やり方・結果）を挙げている場合も、この文は正しいとします。この文は回答について正しいですか。「はい」か「いいえ」で答えてください。
答え:
""",
        "must_not_contrast": """
### お客様 ###
{{question}}

### 回答（ANSWER） ###
{{answer}}

### 行為 ###
{{act}}

回答について正しいのはどちらですか。
A) 回答はこの行為をしている（同じ言葉でも、別の言葉でも）。
B) 回答はこの行為をしていない。
「A」か「B」で答えてください。
答え:
""",
    },
}


def with_lever_parts(judge: ExpectationJudge) -> ExpectationJudge:
    """The judge with ``LEVER_PARTS`` added where its template has none of its own."""
    extra = {k: v for k, v in LEVER_PARTS[judge.language].items() if k not in judge.template.parts}
    judge.template = replace(judge.template, parts={**judge.template.parts, **extra})
    return judge


def make_judge(variant: str, client: ChatClient, prompts: Path | None, language: str) -> ExpectationJudge:
    judge = with_lever_parts(ExpectationJudge(client, prompts, language))
    chosen = [] if variant == "baseline" else variant.split("+")
    unknown = [lever for lever in chosen if lever not in LEVERS and lever != "plain"]
    if unknown:
        raise SystemExit(f"unknown lever {unknown[0]!r}: use baseline or {', '.join(LEVERS)} (joined by +)")
    for lever in chosen:
        if lever in LEVERS:
            setattr(judge, LEVERS[lever], True)
    if "plain" in chosen:  # the check as it was before act_calibrated became the English default
        judge.act_calibrated = False
        judge.raw_broken_at = judge.raw_met_at
    return judge


class CachedClient:
    """The judge's client, answering a prompt asked before (this run or one stored in ``path``)
    from its stored completion: the same prompt in two variants or two sets is asked once."""

    def __init__(self, client: ChatClient, path: Path | None) -> None:
        self.client = client
        self.path = path
        self.stored: dict[str, Completion] = pickle.loads(path.read_bytes()) if path and path.is_file() else {}
        self.asked = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.client, name)

    async def complete(self, messages: list[Message], **options: Any) -> Completion:
        model = getattr(getattr(self.client, "endpoint", None), "model", "")
        key = hashlib.sha256(json.dumps([model, messages, options.get("max_tokens")], ensure_ascii=False).encode())
        digest = key.hexdigest()
        if digest not in self.stored:
            self.stored[digest] = await self.client.complete(messages, **options)
            self.asked += 1
            if self.path:
                self.path.write_bytes(pickle.dumps(self.stored))
        return self.stored[digest]


def raw(p: float | None, judge: ExpectationJudge) -> float | None:
    """The judge's raw P(yes) behind a prohibition check's shifted one."""
    if p is None or judge.raw_broken_at == MET_AT:
        return p
    return shifted(p, 1 - judge.raw_broken_at)  # the inverse shift


async def run(
    split: str, variants: list[str], out: Path, cache: Path | None, broken_at: dict[str, float]
) -> list[dict]:
    negated = select(load_expectation_items(LABELLED / "expectations_negated.jsonl").items, split)
    plain = [i for i in select(load_expectation_items(LABELLED / "expectations.jsonl").items, split)
             if i.kind in PROHIBITION_KINDS]  # fmt: skip
    rows: list[dict] = []
    holder: list[CachedClient] = []

    def wrap(client: ChatClient) -> ChatClient:
        holder.append(CachedClient(client, cache))
        return holder[0]  # type: ignore[return-value]

    async with judge_client(wrap) as (config, client):
        for variant in variants:
            judges = {lang: make_judge(variant, client, config.prompts, lang) for lang in ("en", "ja")}
            for lang, cut in broken_at.items():
                judges[lang].raw_broken_at = cut
            for source, items in (("negated", negated), ("expectations", plain)):
                for item in items:
                    expectation, answer = item.to_check()
                    judge = judges[item.language]
                    check = await judge.check(asked(expectation, "act"), answer)
                    # label_broken: 1 = the answer does the act — the label as a run reads the item
                    # (a negated `must` is a prohibition of its act: its label 1 = kept flips).
                    broken = item.run_label
                    row = {"variant": variant, "split": split, "set": source, "id": item.id, "language": item.language,
                           "kind": item.kind, "label_broken": broken, "p_broken": check.p_yes,
                           "raw": raw(check.p_yes, judge), "raw_cut": judge.raw_broken_at, "read": check.read}  # fmt: skip
                    rows.append(row)
                    print(json.dumps(row, ensure_ascii=False), flush=True)
    if holder:
        print(f"# judge calls: {holder[0].asked} (the rest answered from the cache)", flush=True)
    out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return rows


CELLS = {  # per set: (kind, what is right) for the columns kept / absent / broken
    "negated": (("negated_kept", 0), ("negated_absent", 0), ("negated_broken", 1)),
    "expectations": (("prohibition_kept", 0), (None, 0), ("prohibition_broken", 1)),
}


def figures(rs: list[dict], key: str = "p_broken", cut: float = MET_AT) -> tuple[list[str], list[str]]:
    scored = [r for r in rs if r[key] is not None]
    predicted = [int(r[key] >= cut) for r in scored]
    labels = [r["label_broken"] for r in scored]
    acc = sum(p == y for p, y in zip(predicted, labels, strict=True)) / len(scored) if scored else None
    kappa = agreement.cohen_kappa(predicted, labels) if scored else None
    auc = agreement.auc([r[key] for r in scored], [y == 1 for y in labels]) if scored else None
    cells = []
    for kind, right in CELLS[rs[0]["set"]]:
        mine = [r for r in scored if r["kind"] == kind]
        cells.append(f"{sum(int(r[key] >= cut) == right for r in mine)}/{len(mine)}" if kind else "–")
    return ["–" if v is None else f"{v:.2f}" for v in (acc, kappa, auc)], cells


def best_cut(rs: list[dict], grid: list[float]) -> float:
    """The raw cut with the best accuracy on ``rs``; the middle one of those tied."""

    def acc(cut: float) -> int:
        return sum(int(r["raw"] >= cut) == r["label_broken"] for r in rs if r["raw"] is not None)

    top = max(acc(c) for c in grid)
    tied = [c for c in grid if acc(c) == top]
    return tied[len(tied) // 2]


def report(rows: list[dict], grid: list[float]) -> None:
    groups: dict[tuple[str, str, str], list[dict]] = collections.defaultdict(list)
    for r in rows:
        groups[(r["set"], r["variant"], r["language"])].append(r)
    print(
        "| set | variant | cut (raw) | lang | n | acc | κ | AUC | kept read as kept | absent read as kept | broken caught |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    chosen: dict[tuple[str, str], float] = {}
    for (source, variant, language), rs in sorted(groups.items(), key=lambda g: (g[0][0] != "negated", g[0])):
        shown, cells = figures(rs)
        print(
            f"| {source} | {variant} | {rs[0]['raw_cut']:.2f} | {language} | {len(rs)} | "
            + " | ".join(shown + cells)
            + " |"
        )
        if source == "negated":
            chosen[(variant, language)] = best_cut(rs, grid)
    for (source, variant, language), rs in sorted(groups.items(), key=lambda g: (g[0][0] != "negated", g[0])):
        if rs[0].get("split") == "report":
            continue  # a cut is chosen on the choose half only: apply it with --broken-at
        cut = chosen[(variant, language)]
        shown, cells = figures(rs, "raw", cut)
        print(
            f"| {source} | {variant} + own cut | {cut:.2f} | {language} | {len(rs)} | "
            + " | ".join(shown + cells)
            + " |"
        )
    print("\nraw P(act) per item (variant: id=P):")
    for (source, variant, language), rs in sorted(groups.items()):
        if source == "negated":
            print(
                f"  {variant} {language}: "
                + " ".join(
                    f"{r['id'].split('-negated_')[0][3:]}{r['kind'][8]}={r['raw']:.3f}"
                    for r in rs
                    if r["raw"] is not None
                )
            )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--split", choices=("choose", "report"), default="choose")
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--out", type=Path, default=Path("/tmp/prohibition_levers.jsonl"))
    parser.add_argument("--cache", type=Path, default=None, help="completions kept between runs (a pickle file)")
    parser.add_argument("--broken-at", default="", help="a prohibition's raw cut per language: en=0.08,ja=0.11")
    parser.add_argument("--cut-grid", default="0.02:0.60:0.01", help="raw cuts tried for the own-cut rows")
    parser.add_argument("--table-only", action="store_true", help="print the table of --out without judging")
    args = parser.parse_args()
    lo, hi, step = (float(v) for v in args.cut_grid.split(":"))
    grid = [round(lo + i * step, 4) for i in range(int(round((hi - lo) / step)) + 1)]
    broken_at = {k: float(v) for k, v in (p.split("=") for p in args.broken_at.split(",") if p)}
    if args.table_only:
        rows = [json.loads(line) for line in args.out.read_text(encoding="utf-8").splitlines() if line.strip()]
    else:
        rows = asyncio.run(run(args.split, args.variants.split(","), args.out, args.cache, broken_at))
    report(rows, grid)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
