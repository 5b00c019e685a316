"""Ablation harness for the judge: variant × metric × data → agreement, items/min, output tokens.

Data: the human-labelled public sets in ``../shared/data`` (read in place, never copied):
STS-B pairs (``sts_train.json``, en), SQuAD 2.0 answerability (``squadv2_train.json``, en) and
JSTS (``jsts_valid.jsonl``, ja). Each file is shuffled with a fixed seed and cut in two: the
*choose* part (variants are compared there; few-shot examples and thresholds come from it) and
the *report* part (figures for the README; nothing is tuned on it). No other split is used.

Every variant is defined in ``judge_variants.py``; all ask for one level token and read its
probability distribution through ragtui's own client (``ChatClient`` with ``top_logprobs``) and
``metrics.probability.read_levels`` — the same code the shipped metrics use.

    python bench/bench_calibration.py --part choose --n 60            # starts the embedded model
    python bench/bench_calibration.py --part report --n 100 --variants c-same-0-5,a-states-yes-no
    python bench/bench_calibration.py --base-url URL --model NAME …

Results are appended to ``--out`` (JSONL, one line per judged item) and reused by later runs
with the same variant/data/part/item, so an interrupted run continues; the table is printed from
that file. Agreement: Spearman for graded labels (STS, JSTS), and for SQuAD the AUC and Cohen's
kappa at the threshold that maximises kappa on the choose part.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import sys
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from judge_variants import (  # noqa: E402
    ANSWER_FIRST,
    VARIANTS,
    Variant,
    ja_probes_variant,
    pair_user,
    qa_user,
)

from ragtui.core.config.paths import bundled_dir  # noqa: E402
from ragtui.core.content.prompts import load_prompt  # noqa: E402
from ragtui.core.judge_quality import agreement  # noqa: E402
from ragtui.core.metrics.base import TurnContext  # noqa: E402
from ragtui.core.metrics.check_bias import CheckBias  # noqa: E402
from ragtui.core.metrics.level_question import ask_level  # noqa: E402
from ragtui.core.metrics.probability import SCALE_1_5, TOP_LOGPROBS, read_levels  # noqa: E402
from ragtui.core.metrics.rubric import CheckedRubricJudge, RubricJudge  # noqa: E402
from ragtui.core.models.endpoints import Endpoint  # noqa: E402
from ragtui.core.models.llm import ChatClient, ClientPool  # noqa: E402
from ragtui.core.types.passages import Passage
from ragtui.core.types.turns import Utterance

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
RUBRIC = Path(__file__).resolve().parents[1] / "sample_data" / "labelled" / "rubric.jsonl"
SEED = 13


def load_sets(data: Path) -> dict[str, list[dict]]:
    """Each data set as items {id, kind, language, …, label 0–1}, shuffled with ``SEED``."""
    sts = json.loads((data / "sts_train.json").read_text(encoding="utf-8"))
    squad = json.loads((data / "squadv2_train.json").read_text(encoding="utf-8"))
    jsts = [json.loads(line) for line in (data / "jsts_valid.jsonl").read_text(encoding="utf-8").splitlines() if line]
    sets = {
        "sts": [
            {"id": f"sts{i}", "language": "en", "a": r["sentence1"], "b": r["sentence2"], "label": r["similarity"]}
            for i, r in enumerate(sts)
        ],
        "squad": [
            {"id": f"squad{i}", "language": "en", "q": r["question"], "p": r["context"], "label": r["answerability"]}
            for i, r in enumerate(squad)
        ],
        "jsts": [
            {
                "id": f"jsts{r['sentence_pair_id']}",
                "language": "ja",
                "a": r["sentence1"],
                "b": r["sentence2"],
                "label": r["label"] / 5,
            }
            for r in jsts
        ],
    }
    rubric = [json.loads(line) for line in RUBRIC.read_text(encoding="utf-8").splitlines() if line.strip()]
    for language in ("en", "ja"):
        sets[f"rubric-{language}"] = [
            {"id": r["id"], "language": language, "turn": r, "label": (r["label"] - 1) / 4, "good": r["good"]}
            for r in rubric
            if r["language"] == language
        ]
    for name, items in sets.items():
        random.Random(f"{SEED}-{name}").shuffle(items)
    return sets


def split(items: list[dict]) -> dict[str, list[dict]]:
    half = len(items) // 2
    return {"choose": items[:half], "report": items[half:]}


def words(text: str) -> set[str]:
    """Word set for English, character bigrams for Japanese (no spaces to split on)."""
    found = set(re.findall(r"[a-z0-9]+", text.lower()))
    cjk = re.sub(r"[\sa-zA-Z0-9]", "", text)
    return found | {cjk[i : i + 2] for i in range(len(cjk) - 1)}


def nearest(item: dict, pool: list[dict], k: int) -> list[dict]:
    """The ``k`` pool items sharing most words with this one (retrieval-chosen few-shot)."""
    key = words(item.get("a", "") + " " + item.get("b", "") + item.get("q", ""))
    scored = [(len(key & words(p.get("a", "") + " " + p.get("b", "") + p.get("q", ""))), p) for p in pool]
    scored = [(s, p) for s, p in scored if p["id"] != item["id"]]
    scored.sort(key=lambda sp: -sp[0])
    return [p for _, p in scored[:k]]


def label_token(variant: Variant, label: float, language: str) -> str:
    if "yes" in variant.levels:
        yes = label >= 0.5
        if language == "ja":
            return "はい" if yes else "いいえ"
        return "yes" if yes else "no"
    low = int(variant.scale_min)
    return str(min(max(round(label * variant.scale_max), low), int(variant.scale_max)))


def user_text(item: dict) -> str:
    if "a" in item:
        return pair_user(item["a"], item["b"], item["language"])
    return qa_user(item["q"], item["p"], item["language"])


def messages(variant: Variant, item: dict, pool: list[dict]) -> list[dict[str, str]]:
    lang = item["language"]
    out = [{"role": "system", "content": variant.system[lang]}]
    for shot in nearest(item, pool, variant.shots) if variant.shots else []:
        out.append({"role": "user", "content": user_text(shot)})
        out.append({"role": "assistant", "content": label_token(variant, shot["label"], lang)})
    out.append({"role": "user", "content": user_text(item)})
    return out


def turn_context(item: dict) -> TurnContext:
    turn = item["turn"]
    history = [Utterance("user" if h["role"] == "user" else "bot", h["content"]) for h in turn["history"]]
    passages = [Passage(f"{item['id']}#{i}", "", text) for i, text in enumerate(turn["context"], start=1)]
    return TurnContext(1, turn["question"], turn["response"], passages, history, item["language"])


BIAS: dict[str, CheckBias] = {}  # language → the judge's content-free P(yes) per check
BIAS_LOCK = asyncio.Lock()


async def judge_turn(client: ChatClient, variant: Variant, item: dict) -> dict:
    """The rubric variants: the shipped checks, one whole score-first grade, or the earlier
    whole verdict with written reasoning (prompts/<lang>/judge_rubric.toml)."""
    started = time.perf_counter()
    lang = item["language"]
    prompts = bundled_dir("prompts")
    context = turn_context(item)
    if variant.name == "r-whole-score-first":
        turn = CheckedRubricJudge(client, load_prompt(prompts, lang, "judge_probes")).turn_text(context)
        msgs = [{"role": "system", "content": variant.system[lang]}, {"role": "user", "content": turn}]
        answer = await ask_level(client, msgs, SCALE_1_5)
        value = None if answer.graded.value is None else (answer.graded.value - 1) / 4
        tokens = sum(c.completion_tokens or 0 for c in answer.completions)
        return {"value": value, "source": answer.graded.source, "tokens": tokens, "ms": _ms(started)}
    if variant.name == "r-checks-v1-whole-turn":
        raise SystemExit(
            "r-checks-v1-whole-turn was measured with an earlier ragtui (a27d675); check that out to rerun"
        )
    if variant.name == "r-checks":
        judge = CheckedRubricJudge(client, load_prompt(prompts, lang, "judge_probes"))
    elif variant.name == "r-checks-debiased":
        judge = CheckedRubricJudge(client, load_prompt(prompts, lang, "judge_probes"))
        async with BIAS_LOCK:  # measured once per language, not once per concurrent item
            if lang not in BIAS:
                BIAS[lang] = await judge.measure_bias(lang)
                print(f"content-free P(yes), {lang}: {BIAS[lang].priors}", flush=True)
        judge.bias = BIAS[lang]
    elif variant.name.startswith("r-checks-ja-"):
        judge = CheckedRubricJudge(client, ja_probes_variant(load_prompt(prompts, "ja", "judge_probes"), variant.name))
    elif variant.name == "r-checks-en-questions":
        judge = CheckedRubricJudge(client, load_prompt(prompts, "en", "judge_probes"))
    else:
        judge = RubricJudge(client, load_prompt(prompts, lang, "judge_rubric"))
    judgment = await judge.judge(context)
    overall = judgment.details.get("overall") or (judgment.details.get("scores") or {}).get("overall")
    return {
        "value": None if judgment.score is None or overall is None else (float(overall) - 1) / 4,
        "source": "probability" if variant.name.startswith("r-checks") else "sampled",
        "error": judgment.error,
        "probes": judgment.details.get("probes"),
        "scores": judgment.details.get("scores"),
        "tokens": judgment.completion_tokens or 0,
        "ms": _ms(started),
    }


async def judge(client: ChatClient, variant: Variant, item: dict, pool: list[dict]) -> dict:
    if variant.metric == "rubric":
        return await judge_turn(client, variant, item)
    started = time.perf_counter()
    tokens = 0
    extra: dict = {}
    msgs = messages(variant, item, pool)
    if variant.two_step:
        lang = item["language"]
        first = await client.complete(
            [{"role": "system", "content": ANSWER_FIRST[lang]}, {"role": "user", "content": user_text(item)}],
            temperature=0,
            max_tokens=24,
        )
        tokens += first.completion_tokens or 0
        candidate = first.text.strip().splitlines()[0][:120] if first.text.strip() else ""
        extra["candidate"] = candidate
        if not candidate or "not stated" in candidate.lower() or "記載なし" in candidate:
            return {"value": 0.0, "source": "sampled", "tokens": tokens, "ms": _ms(started), **extra}
        msgs[-1]["content"] = msgs[-1]["content"].rsplit("\n", 1)[0] + f"\nCANDIDATE: {candidate}\nAnswer:"
    completion = await client.complete(
        msgs, temperature=0, max_tokens=1, top_logprobs=None if variant.sampled_only else TOP_LOGPROBS
    )
    tokens += completion.completion_tokens or 0
    graded = read_levels(completion, variant.levels)
    value = None
    if graded.value is not None:
        value = (graded.value - variant.scale_min) / (variant.scale_max - variant.scale_min)
    return {
        "value": value,
        "source": graded.source,
        "error": graded.error,
        "distribution": graded.distribution,
        "tokens": tokens,
        "ms": _ms(started),
        **extra,
    }


def _ms(started: float) -> float:
    return (time.perf_counter() - started) * 1000


def applies(variant: Variant, data: str) -> bool:
    if variant.metric == "rubric" or data.startswith("rubric"):
        return variant.metric == "rubric" and data.startswith("rubric")
    return (variant.metric == "answerability") == (data == "squad")


def best_threshold(values: list[float], labels: list[float]) -> float:
    candidates = sorted(set(values))
    cuts = [(a + b) / 2 for a, b in zip(candidates, candidates[1:], strict=False)] or [0.5]
    return max(cuts, key=lambda t: kappa_at(values, labels, t) or -1.0)


def kappa_at(values: list[float], labels: list[float], threshold: float) -> float | None:
    return agreement.cohen_kappa([1 if v >= threshold else 0 for v in values], [1 if y >= 0.5 else 0 for y in labels])


def auc(values: list[float], labels: list[float]) -> float | None:
    pos = [v for v, y in zip(values, labels, strict=True) if y >= 0.5]
    neg = [v for v, y in zip(values, labels, strict=True) if y < 0.5]
    if not pos or not neg:
        return None
    wins = sum(1.0 if p > n else 0.5 if p == n else 0.0 for p in pos for n in neg)
    return wins / (len(pos) * len(neg))


def load_results(path: Path) -> dict[tuple[str, str, str, str], dict]:
    results: dict[tuple[str, str, str, str], dict] = {}
    if path.is_file():
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            results[(row["variant"], row["data"], row["part"], row["id"])] = row
    return results


def argmax_row(row: dict, variant: Variant) -> dict:
    """The same judgment read the usual way: the single likeliest level (what one sample at
    temperature 0 gives), to show what the probability weighting adds, at no extra judge call."""
    distribution = row.get("distribution") or {}
    if not distribution or row["value"] is None:
        return row
    label = max(distribution, key=lambda k: distribution[k])
    value = (variant.levels.get(label, 0.0) - variant.scale_min) / (variant.scale_max - variant.scale_min)
    return {**row, "value": value}


def summarise(
    results: dict, variant: str, data: str, part: str, ids: list[str], argmax_of: Variant | None = None
) -> dict | None:
    rows = [results[(variant, data, part, i)] for i in ids if (variant, data, part, i) in results]
    if not rows:
        return None
    if argmax_of is not None:
        rows = [argmax_row(r, argmax_of) for r in rows]
    scored = [r for r in rows if r["value"] is not None]
    values = [r["value"] for r in scored]
    labels = [r["label"] for r in scored]
    ms = sum(r["ms"] for r in rows)
    out = {
        "n": len(rows),
        "unscored": len(rows) - len(scored),
        "sampled": sum(1 for r in rows if r["source"] == "sampled"),
        "items_per_min": len(rows) / (ms / 60000) if ms else None,
        "tokens": sum(r["tokens"] for r in rows) / len(rows),
    }
    if data == "squad":
        choose = [results[k] for k in results if k[:3] == (variant, data, "choose") and results[k]["value"] is not None]
        if argmax_of is not None:
            choose = [argmax_row(r, argmax_of) for r in choose]
        threshold = best_threshold([r["value"] for r in choose], [r["label"] for r in choose]) if choose else 0.5
        out.update(auc=auc(values, labels), kappa=kappa_at(values, labels, threshold), threshold=threshold)
    else:
        out["spearman"] = agreement.spearman(values, labels)
    if data.startswith("rubric"):
        out["auc"] = auc(values, [1.0 if r["good"] else 0.0 for r in scored])
    return out


def table(results: dict, sets: dict[str, dict[str, list[dict]]], n: int) -> str:
    lines = [
        "| variant | data | part | n | agreement | unscored | sampled | items/min | output tokens/item |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for variant in VARIANTS:
        for data, parts in sets.items():
            if not applies(variant, data):
                continue
            for part, derived in (("choose", False), ("choose", True), ("report", False), ("report", True)):
                if derived and (variant.metric == "rubric" or variant.sampled_only):
                    continue
                ids = [i["id"] for i in parts[part][:n]]
                s = summarise(results, variant.name, data, part, ids, variant if derived else None)
                if s is None:
                    continue
                name = f"{variant.name} (likeliest level only)" if derived else variant.name
                if data.startswith("rubric"):
                    figure = f"Spearman {fmt(s['spearman'])}, AUC good/bad {fmt(s['auc'])}"
                elif data == "squad":
                    figure = f"AUC {fmt(s['auc'])}, kappa {fmt(s['kappa'])} (t={s['threshold']:.2f})"
                else:
                    figure = f"Spearman {fmt(s['spearman'])}"
                lines.append(
                    f"| {name} | {data} | {part} | {s['n']} | {figure} | {s['unscored']} | {s['sampled']} "
                    f"| {fmt(s['items_per_min'], 0)} | {s['tokens']:.1f} |"
                )
    return "\n".join(lines)


def fmt(value: float | None, digits: int = 2) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


@contextlib.contextmanager
def endpoint_url(args: argparse.Namespace) -> Iterator[tuple[str, str]]:
    if args.base_url:
        yield args.base_url, args.model
        return
    from ragtui.core.models.local_model import MODEL_ALIAS, LocalModel, LocalModelSettings

    with LocalModel(LocalModelSettings()) as model:
        os.environ["RAGTUI_EMBEDDED_TOKEN"] = model.token or ""  # the shared server's API key
        yield model.start(), MODEL_ALIAS


async def run(args: argparse.Namespace, base_url: str, model: str) -> None:
    sets = {name: split(items) for name, items in load_sets(args.data).items()}
    results = load_results(args.out)
    chosen = [v for v in VARIANTS if not args.variants or v.name in args.variants.split(",")]
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
    limit = asyncio.Semaphore(args.concurrency)
    with args.out.open("a", encoding="utf-8") as out:

        async def one(variant: Variant, data: str, item: dict) -> None:
            key = (variant.name, data, args.part, item["id"])
            if key in results:
                return
            async with limit:
                row = await judge(client, variant, item, sets[data]["choose"])
            row.update(variant=variant.name, data=data, part=args.part, id=item["id"], label=item["label"])
            if "good" in item:
                row["good"] = item["good"]
            results[key] = row
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
            out.flush()

        for variant in chosen:
            for data in args.sets.split(","):
                if applies(variant, data):
                    items = sets[data][args.part][: args.n]
                    await asyncio.gather(*(one(variant, data, item) for item in items))
                    print(f"done {variant.name} {data} {args.part}", flush=True)
    print(table(results, sets, args.n))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--part", choices=("choose", "report"), default="choose")
    parser.add_argument("--n", type=int, default=60, help="items per data set and variant")
    parser.add_argument("--variants", help="comma-separated variant names (default: all)")
    parser.add_argument("--sets", default="sts,jsts,squad,rubric-en,rubric-ja")
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--out", type=Path, default=Path("bench-calibration.jsonl"))
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--table-only", action="store_true", help="print the table from --out and exit")
    parser.add_argument("--base-url")
    parser.add_argument("--model", default="judge")
    args = parser.parse_args()
    if args.table_only:
        sets = {name: split(items) for name, items in load_sets(args.data).items()}
        print(table(load_results(args.out), sets, args.n))
        return 0
    with endpoint_url(args) as (url, model):
        asyncio.run(run(args, url, model))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
