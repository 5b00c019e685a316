"""The realism comparison as text lines (``ragtui realism``: a plain table that fits 80 columns,
then the blind test) and as a JSON document (``--json``). The HTML report draws the same cells
(``cell``) in its own section. Stored text — customer messages, judge replies — appears only in
the JSON and the HTML (escaped there); the terminal lines carry ragtui's own words and numbers,
and the printer passes them through the safe console all the same."""

from __future__ import annotations

from typing import Any

from ...text.number_text import percent_number, percent_text
from ...text.score_text import figure_text, measure_text
from .blind_test import Asked, BlindTest, PairResult
from .conversations import Side
from .figures import Figures, Row
from .pairing import Pair, Pairing
from .stats import Estimate

WIDTH = 80
APART_MARK = "*"


def number(value: float, kind: str) -> str:
    if kind == "share":
        return percent_text(value)
    return figure_text(value) if kind == "similarity" else measure_text(value)


def cell(e: Estimate, kind: str) -> str:
    """``12.3 (10.1–14.5)``, ``25% (12–44%)``; ``–`` when there is nothing to measure."""
    if e.value is None:
        return "–"
    if e.low is None or e.high is None:
        return number(e.value, kind)
    if kind == "share":
        return f"{percent_text(e.value)} ({percent_number(e.low)}–{percent_text(e.high)})"
    return f"{number(e.value, kind)} ({number(e.low, kind)}–{number(e.high, kind)})"


def n_text(e: Estimate) -> str:
    return str(e.n) if e.n else "0"


def _side_line(side: Side) -> str:
    messages = len(side.messages)
    return f"{side.label} run {side.run_id}: {len(side.conversations)} conversations, {messages} customer messages"


def table_lines(f: Figures) -> list[str]:
    header = ("figure", "REAL", "n", "SIM", "n", "")
    rows = [
        (
            r.label,
            cell(r.real, r.kind),
            n_text(r.real),
            cell(r.sim, r.kind),
            n_text(r.sim),
            APART_MARK if r.apart else "",
        )
        for r in f.rows
    ]
    widths = [max(len(str(row[i])) for row in [header, *rows]) for i in range(len(header))]
    right = (False, False, True, False, True, False)

    def line(values: tuple[str, ...]) -> str:
        cells = [v.rjust(w) if r else v.ljust(w) for v, w, r in zip(values, widths, right, strict=True)]
        return "  ".join(cells).rstrip()

    rule = tuple("-" * w if name else "" for name, w in zip(header, widths, strict=True))  # the mark column: none
    return [line(header), line(rule), *(line(row) for row in rows)]


def figure_lines(f: Figures) -> list[str]:
    return [_side_line(f.real), _side_line(f.sim), "", *table_lines(f), *notes(f)]


def notes(f: Figures) -> list[str]:
    """What the table's figures are measured in and over, and what they leave out."""
    lines = [
        "95% intervals: means bootstrap whole conversations, shares are Wilson.",
        "n: messages for the per-message rows, conversations for the others.",
    ]
    if any(r.apart for r in f.rows):
        lines.append(f"{APART_MARK} the two intervals do not overlap: the sides differ here.")
    if not f.same_unit:
        lines.append(
            f"Length: REAL is measured in {f.units[0]} ({f.real.language}), SIM in {f.units[1]} "
            f"({f.sim.language}): the two are not comparable."
        )
    elif f.units[0] == "characters":
        lines.append("Length in characters (Japanese has no spaces): letters, kana, kanji, digits.")
    else:
        lines.append("Length in words: runs of letters and digits.")
    for side in (f.real, f.sim):
        if side.scenario_words:
            lines.append(
                f"{side.label}: {side.scenario_words} of {len(side.messages)} customer messages are the scenario "
                "file's words (openings, planned follow-ups), not the customer's."
            )
    kinds = " · ".join(f"{kind} {r} / {s}" for kind, (r, s) in f.personal_kinds.items())
    lines.append(f"Personal data by kind, conversations REAL / SIM: {kinds}.")
    return lines


def pairing_line(p: Pairing) -> str:
    if not p.pairs:
        found = "no REAL and SIM conversations to pair"
        if p.identical:
            found = f"every pair found ({p.identical}) shows the same text on both sides"
        return found
    by_scenario = sum(1 for x in p.pairs if x.how == "scenario")
    replies = sum(1 for x in p.pairs if x.shown == "reply")
    parts = [
        f"{len(p.pairs)} pairs of {p.candidates} found "
        f"({by_scenario} by scenario, {len(p.pairs) - by_scenario} by opening)",
        "showing the first replies"
        if replies == len(p.pairs)
        else f"showing {replies} first replies, {len(p.pairs) - replies} openings",
    ]
    if p.identical:
        parts.append(f"{p.identical} left out: the same text on both sides")
    return "; ".join(parts)


def blind_lines(test: BlindTest, pairing: Pairing) -> list[str]:
    return [
        f"Blind test (judge {test.model}, {test.language} prompt, seed {test.seed}): which message did the real "
        "customer type? Each pair asked in both orders.",
        *(f"  {line}" for line in blind_summary(test, pairing)),
    ]


def blind_summary(test: BlindTest, pairing: Pairing) -> list[str]:
    """The blind test's outcome in lines (the terminal indents them, the report lists them)."""
    lines = [
        pairing_line(pairing),
        f"right {test.count('right')} · wrong {test.count('wrong')} · split {test.count('split')} "
        f"(same letter in both orders: counts half) · unanswered {test.count('unanswered')}",
    ]
    acc = test.accuracy
    if acc.value is not None and acc.low is not None and acc.high is not None:
        lines.append(
            f"accuracy {percent_text(acc.value)} (95% Wilson CI {percent_text(acc.low)}–{percent_text(acc.high)}, n={acc.n} answered pairs); "
            "50% = indistinguishable"
        )
    first = test.first_share
    if first.value is not None:
        picked = round(first.value * first.n)
        lines.append(
            f"picked the message shown first in {picked} of {first.n} readable answers ({percent_text(first.value)})"
        )
    lines.append(f"→ {test.reading}")
    counted: dict[str, int] = {}
    for reason in test.unanswered_reasons:
        counted[reason] = counted.get(reason, 0) + 1
    for reason, k in list(counted.items())[:3]:
        lines.append(f"unanswered ×{k}: {reason}")
    if len(counted) > 3:
        lines.append(f"… and {len(counted) - 3} other reasons (--json lists every reply)")
    return lines


# -- JSON -----------------------------------------------------------------------------------


def _estimate(e: Estimate) -> dict[str, Any]:
    return {"value": e.value, "low": e.low, "high": e.high, "n": e.n, "conversations": e.groups}


def _side(side: Side, unit: str) -> dict[str, Any]:
    return {
        "run": side.run_id,
        "conversations": len(side.conversations),
        "customer_messages": len(side.messages),
        "scenario_messages": side.scenario_words,
        "language": side.language,
        "length_unit": unit,
    }


def _row(r: Row) -> dict[str, Any]:
    return {
        "key": r.key,
        "label": r.label,
        "kind": r.kind,
        "real": _estimate(r.real),
        "sim": _estimate(r.sim),
        "intervals_apart": r.apart,
    }


def _asked(a: Asked) -> dict[str, Any]:
    return {
        "real_first": a.real_first,
        "p_first": a.p_first,
        "read": a.read,
        "reply": a.reply,
        "error": a.error,
        "unanswered": None if a.picked_first is not None else a.why_unanswered,
    }


def _pair(p: Pair) -> dict[str, Any]:
    return {
        "real_session": p.real.session_id,
        "sim_session": p.sim.session_id,
        "paired_by": p.how,
        "opening_similarity": round(p.similarity, 4),
        "shown": p.shown,
        "real_turn": p.real_message.turn,
        "sim_turn": p.sim_message.turn,
        "real_message": p.real_message.text,
        "sim_message": p.sim_message.text,
    }


def _result(r: PairResult) -> dict[str, Any]:
    return {**_pair(r.pair), "asked": [_asked(a) for a in r.asked], "outcome": r.outcome, "p_real": r.p_real}


def as_json(f: Figures, pairing: Pairing | None, test: BlindTest | None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "real": _side(f.real, f.units[0]),
        "sim": _side(f.sim, f.units[1]),
        "figures": [_row(r) for r in f.rows],
        "personal_data_by_kind": {k: {"real": r, "sim": s} for k, (r, s) in f.personal_kinds.items()},
        "blind_test": None,
    }
    if pairing is not None:
        blind: dict[str, Any] = {
            "candidates": pairing.candidates,
            "identical_left_out": pairing.identical,
            "pairs": [_pair(p) for p in pairing.pairs],
        }
        if test is not None:
            blind.update(
                {
                    "judge_model": test.model,
                    "language": test.language,
                    "seed": test.seed,
                    "pairs": [_result(r) for r in test.results],
                    **{o: test.count(o) for o in ("right", "wrong", "split", "unanswered")},
                    "accuracy": _estimate(test.accuracy),
                    "first_shown_picked": _estimate(test.first_share),
                    "mean_p_real": test.mean_p_real,
                    "reading": test.reading,
                }
            )
        out["blind_test"] = blind
    return out
