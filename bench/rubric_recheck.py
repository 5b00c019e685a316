"""Re-ask one rubric check over a stored calibration run, and measure the rubric with it.

A rubric turn costs nine or ten judge calls; changing one check's wording or what it is shown
changes only that check's answer. So instead of judging the whole labelled set again, this asks
the changed check (``--check``, with the prompts as they are now) for every item of a stored
``ragtui calibrate rubric`` run, keeps the other checks' stored P(yes), and recombines them in
code with ``rubric_probes.combine`` — the same function a run uses.

    # 1. the whole rubric, stored (before the change)
    ragtui calibrate rubric sample_data/labelled/rubric.jsonl --db cal.db
    # 2. the changed check, asked again for the stored items (resumable: answers cached in --out)
    python bench/rubric_recheck.py ask --db cal.db --out recheck.jsonl --language en
    # 3. before/after per half (choose / report, as `ragtui calibrate --split` cuts them), and the
    #    README's first-command turn
    python bench/rubric_recheck.py report --db cal.db --out recheck.jsonl

``report`` also prints what a fit of raw rubric scores to the labels (fitted on the choose half)
does on the report half: the share of good turns (label ≥ 0.8) at or above 0.7 and of bad ones
(≤ 0.4) below it — and with ``--ship en`` writes the choose half's fit into ragtui's shipped fits
(``ragtui/core/judge_quality/shipped_fits.json``) with the prompt fingerprint it is valid for.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import sys
from pathlib import Path

from ragtui.cli.calibrate_command import split_items
from ragtui.cli.model_start import embedded_model
from ragtui.core.config.paths import bundled_dir
from ragtui.core.content.prompts import load_prompt
from ragtui.core.judge_quality import agreement
from ragtui.core.judge_quality.calibration import context_for
from ragtui.core.judge_quality.labelled import LabelledItem, load_labelled, parse_field_options
from ragtui.core.metrics.level_question import ask_level
from ragtui.core.metrics.probability import YES_NO, fold_yes_no
from ragtui.core.metrics.rubric import CheckedRubricJudge
from ragtui.core.metrics.rubric_probes import combine
from ragtui.core.models.endpoints import resolve_endpoint
from ragtui.core.models.llm import ClientPool
from ragtui.core.runs import bootstrap
from ragtui.core.runs.bootstrap import Overrides
from ragtui.core.store import calibration_runs
from ragtui.core.store.store import Store

DATA = bundled_dir("sample_data") / "labelled" / "rubric.jsonl"
KNOWLEDGE = bundled_dir("sample_data") / "knowledge" / "en" / "09-linked-services.md"
# The README's first command: the id-linking question answered with the knowledge base's steps.
README_TURN = LabelledItem(
    key="readme-id-linking",
    line=0,
    language="en",
    question="How do I link my Tsumugi ID with an external service?",
    response=(
        "You can link your Tsumugi ID with a Google, Apple, X or LINE account. Log in to Tsumugi and go to "
        'Settings > Account > Linked services, tap "Link" next to the service, sign in to that service and '
        'allow Tsumugi to access your basic profile. When you return to Tsumugi, the service shows as "Linked".'
    ),
    reference="",
    passages=(KNOWLEDGE.read_text(encoding="utf-8"),),
    label=1.0,
)
GOOD, BAD, GATE = 0.8, 0.4, 0.7
BEFORE = "/before"
OLD_OTHER_COMPANY = "Does the RESPONSE name another company, or a product or app made by another company?"


def items() -> list[LabelledItem]:
    data = load_labelled(DATA, "rubric", parse_field_options([]), binary=False, label_max=5.0, language="en")
    return data.items


def halves() -> dict[str, str]:
    """item key → "choose" | "report", as ``ragtui calibrate --split`` cuts the set."""
    all_items = items()
    out = {i.key: "choose" for i in split_items(all_items, "choose")}
    out.update({i.key: "report" for i in split_items(all_items, "report")})
    return out


def latest_run(store: Store) -> int:
    run_id = calibration_runs.newest_item_run(store)
    if run_id is None:
        sys.exit("no calibration run stored in this database")
    return int(run_id)


def stored_probes(store: Store, run_id: int) -> dict[str, dict]:
    """item key → {"label", "score", "values" (check → P), "claims"} of every scored item."""
    out: dict[str, dict] = {}
    for key, label, score, judgment in calibration_runs.scored_judgments(store, run_id):
        probes = judgment.get("details", {}).get("probes", [])
        values = {p["check"]: p["value"] for p in probes if p["check"] != "claim"}
        claims = [p["value"] for p in probes if p["check"] == "claim"]
        out[key] = {"label": label, "score": score, "values": values, "claims": claims}
    return out


async def ask(args: argparse.Namespace) -> None:
    cached = read_answers(args.out)
    readme_before = dataclasses.replace(README_TURN, key=README_TURN.key + BEFORE)
    wanted = [i for i in items() if i.language in args.language] + [README_TURN, readme_before]
    if args.only:
        wanted = [i for i in wanted if i.key in args.only]
    config = bootstrap.load_effective_config(Overrides(db=args.db))
    endpoint = resolve_endpoint(config, "judge", None)
    pool = ClientPool()
    try:
        with embedded_model(config, {"judge": endpoint}):
            client = pool.client_for(endpoint)
            judges = {
                lang: CheckedRubricJudge(client, load_prompt(bundled_dir("prompts"), lang, "judge_probes"))
                for lang in ("en", "ja")
            }
            for n, item in enumerate(wanted, start=1):
                if item.key in cached:
                    continue
                judge = judges[item.language]
                question = next(q for q in judge.questions(context_for(item)) if q.name == args.check)
                messages = question.messages
                if item.key.endswith(BEFORE):  # the check as it was: the reply alone, the old wording
                    shown = judge.template.render("on_response", response=item.response)
                    messages = judge.messages(shown, OLD_OTHER_COMPANY)
                answer = await ask_level(client, messages, YES_NO)
                graded = fold_yes_no(answer.graded)
                row = {"key": item.key, "check": args.check, "value": graded.value, "source": graded.source}
                with args.out.open("a", encoding="utf-8") as f:
                    f.write(json.dumps(row) + "\n")
                print(f"{n}/{len(wanted)} {item.key} P(yes) {graded.value}", flush=True)
    finally:
        await pool.aclose()


async def readme_turn(args: argparse.Namespace) -> None:
    """The whole rubric on the README's first-command turn, as a run judges it (shipped fit included)."""
    from ragtui.core.judge_quality.fit import prompt_fingerprint
    from ragtui.core.judge_quality.shipped_fits import shipped_fit
    from ragtui.core.models.endpoints import EMBEDDED_MODEL

    config = bootstrap.load_effective_config(Overrides(db=args.db))
    endpoint = resolve_endpoint(config, "judge", None)
    pool = ClientPool()
    try:
        with embedded_model(config, {"judge": endpoint}):
            judge = CheckedRubricJudge(
                pool.client_for(endpoint), load_prompt(bundled_dir("prompts"), "en", "judge_probes")
            )
            judgment = await judge.judge(context_for(README_TURN))
    finally:
        await pool.aclose()
    fit = shipped_fit("rubric", EMBEDDED_MODEL, prompt_fingerprint(judge))
    raw = judgment.score
    for probe in judgment.details.get("probes", []):
        print(f"  {probe['check']}: P(yes) {fmt(probe['value'])}")
    fitted = None if raw is None or fit is None else fit.apply(raw)
    print(f"README turn: raw {fmt(raw)} · fitted {fmt(fitted)} (read: {judgment.details.get('read')})")


def read_answers(path: Path) -> dict[str, dict]:
    if not path.exists():
        return {}
    return {row["key"]: row for row in map(json.loads, path.read_text(encoding="utf-8").splitlines() if path else [])}


def figures(rows: list[tuple[float, float]]) -> str:
    """Spearman with the labels; AUC between the set's good and bad turns (as calibrate reports)."""
    scores, labels = [s for s, _ in rows], [y for _, y in rows]
    rho = agreement.spearman(scores, labels)
    # The set marks a turn good exactly when its label is 4 or 5 (≥ 0.8 on the 0–1 scale).
    auc = agreement.auc(list(scores), [y >= GOOD for y in labels])
    mae = agreement.mean_absolute_error(scores, labels)
    return f"n={len(rows)} Spearman {fmt(rho)} AUC good/bad {fmt(auc)} MAE {fmt(mae)}"


def gate_shares(rows: list[tuple[float, float]]) -> str:
    goods = [s for s, y in rows if y >= GOOD]
    bads = [s for s, y in rows if y <= BAD]
    good_share = sum(1 for s in goods if s >= GATE) / len(goods) if goods else None
    bad_share = sum(1 for s in bads if s < GATE) / len(bads) if bads else None
    return f"good ≥ {GATE}: {fmt(good_share)} ({len(goods)}) · bad < {GATE}: {fmt(bad_share)} ({len(bads)})"


def fmt(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"


def report(args: argparse.Namespace) -> None:
    from ragtui.core.judge_quality.fit import isotonic_fit, isotonic_predict

    store = Store.open(args.db)
    try:
        probes = stored_probes(store, args.run or latest_run(store))
    finally:
        store.close()
    answers = read_answers(args.out)
    half = halves()
    language = {i.key: i.language for i in items()}
    before: dict[tuple[str, str], list[tuple[float, float, str]]] = {}
    after: dict[tuple[str, str], list[tuple[float, float, str]]] = {}
    for key, p in probes.items():
        group = (language[key], half[key])
        before.setdefault(group, []).append((p["score"], p["label"], key))
        if key in answers and answers[key]["value"] is not None:
            values = {**p["values"], args.check: answers[key]["value"]}
            after.setdefault(group, []).append((combine(values, p["claims"]).overall / 5, p["label"], key))
    for group in sorted(before):
        keys = {k for _, _, k in after.get(group, [])}
        same = [(s, y) for s, y, k in before[group] if k in keys]
        print(
            f"{group[0]} {group[1]}: before {figures(same)} · after {figures([(s, y) for s, y, _ in after.get(group, [])])}"
        )
        old = {k: probes[k]["values"].get(args.check) for k in keys}
        new = {k: answers[k]["value"] for k in keys}
        print(f"   mean P({args.check}) before {fmt(mean(old.values()))} after {fmt(mean(new.values()))}")
    for key, how in ((README_TURN.key + BEFORE, "the reply alone, before"), (README_TURN.key, "as shipped")):
        if key in answers:
            print(f"README turn P({args.check}), {how}: {fmt(answers[key]['value'])}")
    source = after if args.fit_on == "after" else before
    for lang in sorted({g[0] for g in source}):
        choose = [(s, y) for s, y, _ in source.get((lang, "choose"), [])]
        held = [(s, y) for s, y, _ in source.get((lang, "report"), [])]
        if not choose or not held:
            continue
        xs, ys = isotonic_fit([s for s, _ in choose], [y for _, y in choose])
        fitted = [(isotonic_predict(xs, ys, s), y) for s, y in held]
        print(f"{lang} report half, raw:    {gate_shares(held)} · {figures(held)}")
        print(f"{lang} report half, fitted: {gate_shares(fitted)} · {figures(fitted)}")
        if args.ship and lang in args.ship:
            ship(lang, xs, ys, choose, held, fitted)


def ship(lang: str, xs: list[float], ys: list[float], choose: list, held: list, fitted: list) -> None:
    """Write (or replace) this language's entry of ragtui's shipped fits for the embedded judge."""
    from ragtui.core.judge_quality.fit import prompt_fingerprint
    from ragtui.core.judge_quality.shipped_fits import SHIPPED_FITS
    from ragtui.core.models.endpoints import EMBEDDED_MODEL

    judge = CheckedRubricJudge(None, load_prompt(bundled_dir("prompts"), lang, "judge_probes"))  # type: ignore[arg-type]
    data = json.loads(SHIPPED_FITS.read_text(encoding="utf-8")) if SHIPPED_FITS.exists() else {"fits": []}
    entry = {
        "metric": "rubric",
        "model": EMBEDDED_MODEL,
        "language": lang,
        "fingerprint": prompt_fingerprint(judge),
        "kind": "isotonic",
        "xs": [round(x, 6) for x in xs],
        "ys": [round(y, 6) for y in ys],
        "fitted_on": f"sample_data/labelled/rubric.jsonl, {lang} choose half (n={len(choose)})",
        "report": {
            "half": f"{lang} report half",
            "n": len(held),
            "raw": {"spearman": spearman_of(held), **shares(held)},
            "fitted": {"spearman": spearman_of(fitted), **shares(fitted)},
        },
    }
    raw_figures, fitted_figures = entry["report"]["raw"], entry["report"]["fitted"]
    # Applied by default only when it brings the report half nearer the labels: a lower mean
    # absolute error and no fewer turns on the right side of the gate.
    entry["applied"] = (fitted_figures["mae"] or 1) < (raw_figures["mae"] or 1) and sum(
        fitted_figures[k] or 0 for k in ("good_at_or_above_0.7", "bad_below_0.7")
    ) >= sum(raw_figures[k] or 0 for k in ("good_at_or_above_0.7", "bad_below_0.7"))
    data["fits"] = [f for f in data.get("fits", []) if not (f["metric"] == "rubric" and f["language"] == lang)]
    data["fits"].append(entry)
    data["about"] = (
        "The embedded judge's raw rubric score mapped to the labels' 0-1 scale; fitted and reported by "
        "bench/rubric_recheck.py (docs/judge-calibration.md). Applied only for this model and prompt fingerprint."
    )
    SHIPPED_FITS.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote the {lang} entry of {SHIPPED_FITS}")


def spearman_of(rows: list[tuple[float, float]]) -> float | None:
    rho = agreement.spearman([s for s, _ in rows], [y for _, y in rows])
    return None if rho is None else round(rho, 3)


def shares(rows: list[tuple[float, float]]) -> dict[str, float | None]:
    goods = [s for s, y in rows if y >= GOOD]
    bads = [s for s, y in rows if y <= BAD]
    mae = agreement.mean_absolute_error([s for s, _ in rows], [y for _, y in rows])
    return {
        "mae": None if mae is None else round(mae, 3),
        "good_at_or_above_0.7": round(sum(s >= GATE for s in goods) / len(goods), 3) if goods else None,
        "bad_below_0.7": round(sum(s < GATE for s in bads) / len(bads), 3) if bads else None,
    }


def mean(values: object) -> float | None:
    found = [v for v in values if isinstance(v, int | float)]  # type: ignore[attr-defined]
    return sum(found) / len(found) if found else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=("ask", "report", "readme-turn"))
    parser.add_argument("--db", type=Path, required=True, help="the database of the stored calibration run")
    parser.add_argument("--run", type=int, help="calibration run id (default: the newest)")
    parser.add_argument("--out", type=Path, required=True, help="JSONL cache of the re-asked check's answers")
    parser.add_argument("--check", default="other_company", help="the check to ask again")
    parser.add_argument("--only", nargs="*", default=[], help="ask: only these item keys (readme-id-linking …)")
    parser.add_argument("--language", nargs="+", default=["en"], choices=("en", "ja"))
    parser.add_argument(
        "--fit-on", choices=("before", "after"), default="after", help="report: fit the stored or the re-asked scores"
    )
    parser.add_argument(
        "--ship", nargs="*", default=[], help="report: write these languages' choose-half fits as shipped"
    )
    args = parser.parse_args()
    if args.mode == "ask":
        asyncio.run(ask(args))
    elif args.mode == "readme-turn":
        asyncio.run(readme_turn(args))
    else:
        report(args)


if __name__ == "__main__":
    main()
