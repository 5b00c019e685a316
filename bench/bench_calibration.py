"""Judge calibration against human labels, with the embedded model (or any endpoint).

Three runs of ``ragtui calibrate`` (the real command, so the README figures are reproducible
with it), each on a seeded sample of a public human-labelled set in ``../shared/data`` (read in
place, never copied into the repository):

- answer_correctness on STS-B pairs (``sts_train.json``; sentence1 = reference, sentence2 =
  answer, label = similarity / 5) — Spearman;
- answerability on SQuAD 2.0 pairs (``squadv2_train.json``) — accuracy, F1, Cohen's kappa;
- answer_correctness in Japanese on a 200-item seeded sample of JSTS (``jsts_valid.jsonl``,
  labels 0–5) — Spearman on its first ``--jsts`` items.

Few-shot examples come from the same files but never from the evaluated items: for STS and
SQuAD from the rest of the train split; JSTS has only a validation split here, so from the
validation items outside the 200-item sample. Their justification text is a fixed sentence per
level (the labels carry no rationale). Temperature 0, as in RAGalyst.

Usage::

    python bench/bench_calibration.py                     # starts the embedded model
    python bench/bench_calibration.py --base-url URL --model NAME
    python bench/bench_calibration.py --sts 50 --squad 40 --jsts 40 --shots 8

Prints each run's figures next to the published reference points (data README).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import re
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from ragtui.cli.main import main as ragtui_main

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
REFERENCE_POINTS = {
    "sts": "RAGalyst 0.894 Spearman (gpt-4o-mini, 8 shots, STS-B test); RAGAS 0.836",
    "squad": "RAGalyst 0.752 (Gemini 2.5 Pro, SQuAD 2.0)",
    "jsts": "no published LLM-judge figure; same metric as STS",
}
LEVEL_NOTES = {
    "en": [
        "Different topics; nothing in common.",
        "Same topic only; the key facts differ.",
        "Some details agree, but most key facts differ or are missing.",
        "Roughly the same, but an important detail differs or is missing.",
        "Nearly the same; only a minor detail differs.",
        "Same meaning, worded differently.",
    ],
    "ja": [
        "話題が異なり、共通点がない。",
        "話題が同じだけで、重要な事実が異なる。",
        "一部は一致するが、重要な事実の多くが異なるか抜けている。",
        "おおむね同じだが、重要な点が1つ異なるか抜けている。",
        "ほぼ同じで、細かい点だけが異なる。",
        "言い回しは違うが同じ意味。",
    ],
}


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


def spread_shots(pool: list[dict], key: str, shots: int, scale: float) -> list[dict]:
    """``shots`` items whose labels cover the scale evenly (the anchors the judge should learn)."""
    chosen: list[dict] = []
    for k in range(shots):
        target = scale * k / max(shots - 1, 1)
        best = min((r for r in pool if r not in chosen), key=lambda r: abs(r[key] - target))
        chosen.append(best)
    return chosen


def correctness_examples(rows: list[dict], ref: str, resp: str, key: str, scale: float, language: str) -> list[dict]:
    out = []
    for r in rows:
        level = round(r[key] / scale * 5)
        out.append(
            {
                "input": {
                    "question": "（質問なし）" if language == "ja" else "(no question given)",
                    "reference": r[ref],
                    "response": r[resp],
                },
                "output": {"justification": LEVEL_NOTES[language][level], "score": level},
            }
        )
    return out


def best_sentence(question: str, context: str) -> str:
    """The context sentence sharing most words with the question: a stand-in supporting span
    for the answerable few-shot examples (SQuAD's answer spans are not in this file)."""
    words = set(re.findall(r"\w+", question.lower()))
    sentences = re.split(r"(?<=[.!?])\s+", context)
    best = max(sentences, key=lambda s: len(words & set(re.findall(r"\w+", s.lower()))))
    if len(best) > 120:  # teach a short quote: the clause that overlaps the question most
        best = max(re.split(r",\s+", best), key=lambda s: len(words & set(re.findall(r"\w+", s.lower()))))
    return best[:120]


def answerability_examples(rows: list[dict]) -> list[dict]:
    out = []
    for r in rows:
        yes = r["answerability"] >= 0.5
        out.append(
            {
                "input": {"question": r["question"], "context": r["context"]},
                "output": {
                    "supporting_span": best_sentence(r["question"], r["context"]) if yes else "",
                    "explanation": "The context states the answer."
                    if yes
                    else "The context is on this subject but does not state what is asked.",
                    "answerable": 1 if yes else 0,
                },
            }
        )
    return out


def prepare(folder: Path, args: argparse.Namespace) -> list[tuple[str, list[str], int]]:
    """Samples and examples on disk; returns (name, calibrate arguments, sample size)."""
    rng = random.Random(args.seed)
    runs: list[tuple[str, list[str], int]] = []

    sts = json.loads((DATA / "sts_train.json").read_text(encoding="utf-8"))
    rng.shuffle(sts)
    evaluated, rest = sts[: args.sts], sts[args.sts :]
    write_jsonl(folder / "sts.jsonl", [{"id": f"sts{i}", **r} for i, r in enumerate(evaluated)])
    write_jsonl(
        folder / "sts_examples.jsonl",
        correctness_examples(
            spread_shots(rest, "similarity", args.shots, 1.0), "sentence1", "sentence2", "similarity", 1.0, "en"
        ),
    )
    runs.append(
        (
            "sts",
            [
                "answer_correctness",
                str(folder / "sts.jsonl"),
                "--field",
                "reference=sentence1",
                "--field",
                "response=sentence2",
                "--field",
                "label=similarity",
                "--examples",
                str(folder / "sts_examples.jsonl"),
                "--language",
                "en",
            ],
            len(evaluated),
        )
    )

    squad = json.loads((DATA / "squadv2_train.json").read_text(encoding="utf-8"))
    rng.shuffle(squad)
    evaluated, rest = squad[: args.squad], squad[args.squad :]
    half = max(args.squad_shots // 2, 1)
    shots = [r for r in rest if r["answerability"] >= 0.5 and len(r["context"]) < 700][:half]
    shots += [r for r in rest if r["answerability"] < 0.5 and len(r["context"]) < 700][:half]
    rng.shuffle(shots)
    write_jsonl(folder / "squad.jsonl", [{"id": f"sq{i}", **r} for i, r in enumerate(evaluated)])
    write_jsonl(folder / "squad_examples.jsonl", answerability_examples(shots))
    runs.append(
        (
            "squad",
            [
                "answerability",
                str(folder / "squad.jsonl"),
                "--field",
                "label=answerability",
                "--examples",
                str(folder / "squad_examples.jsonl"),
                "--language",
                "en",
            ],
            len(evaluated),
        )
    )

    jsts = [json.loads(line) for line in (DATA / "jsts_valid.jsonl").read_text(encoding="utf-8").splitlines() if line]
    rng.shuffle(jsts)
    sample, rest = jsts[:200], jsts[200:]
    write_jsonl(folder / "jsts.jsonl", [{"id": r["sentence_pair_id"], **r} for r in sample])
    write_jsonl(
        folder / "jsts_examples.jsonl",
        correctness_examples(
            spread_shots(rest, "label", args.shots, 5.0), "sentence1", "sentence2", "label", 5.0, "ja"
        ),
    )
    runs.append(
        (
            "jsts",
            [
                "answer_correctness",
                str(folder / "jsts.jsonl"),
                "--field",
                "reference=sentence1",
                "--field",
                "response=sentence2",
                "--field",
                "id=sentence_pair_id",
                "--label-max",
                "5",
                "--limit",
                str(args.jsts),
                "--examples",
                str(folder / "jsts_examples.jsonl"),
                "--language",
                "ja",
            ],
            args.jsts,
        )
    )
    return runs


@contextlib.contextmanager
def endpoint(args: argparse.Namespace) -> Iterator[tuple[str, str]]:
    if args.base_url:
        yield args.base_url, args.model
        return
    from ragtui.core.models.local_model import MODEL_ALIAS, LocalModel, LocalModelSettings

    settings = LocalModelSettings(model_path=Path(args.model_path) if args.model_path else None)
    with LocalModel(settings) as model:
        assert model.base_url is not None
        yield model.base_url, MODEL_ALIAS


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base-url", help="an OpenAI-compatible endpoint instead of the embedded model")
    parser.add_argument("--model", default="qwen2.5-coder-1.5b-instruct")
    parser.add_argument("--model-path", help="GGUF for the embedded model (default: the bundled one)")
    parser.add_argument("--sts", type=int, default=50)
    parser.add_argument("--squad", type=int, default=40)
    parser.add_argument("--jsts", type=int, default=40)
    parser.add_argument("--shots", type=int, default=8, help="few-shot examples for correctness")
    parser.add_argument("--squad-shots", type=int, default=4, help="few-shot examples for answerability")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--only", choices=("sts", "squad", "jsts"), action="append")
    parser.add_argument("--keep", type=Path, help="keep samples, examples and the database in this folder")
    args = parser.parse_args()
    folder = args.keep or Path(tempfile.mkdtemp(prefix="ragtui-cal-"))
    folder.mkdir(parents=True, exist_ok=True)
    runs = [r for r in prepare(folder, args) if not args.only or r[0] in args.only]
    with endpoint(args) as (base_url, model):
        config = folder / "ragtui.toml"
        config.write_text(
            f'database = "calibration.db"\n[endpoint]\nbase_url = "{base_url}"\nmodel = "{model}"\n'
            "timeout = 300\nmax_retries = 1\n",
            encoding="utf-8",
        )
        for name, cal_args, size in runs:
            command = ["calibrate", *cal_args, "--config", str(config), "--temperature", "0"]
            print(f"\n=== {name}: {size} items · reference: {REFERENCE_POINTS[name]}")
            print("$ ragtui " + " ".join(command), flush=True)
            started = time.perf_counter()
            status = ragtui_main(command)
            print(f"(exit {status}, {time.perf_counter() - started:.0f} s wall)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
