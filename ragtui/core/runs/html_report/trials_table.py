"""A run with trials, pair by pair: each scenario × persona's trials as marks (● passed, ○ did
not), how many passed and its pass^K over all of them. Every figure is the core's
(``pass_k.run_pass_k``): the page never decides again what a trial is or whether it passed."""

from __future__ import annotations

from ...text.score_text import figure_text, score_text
from ..pass_k import PairTrials, RunPassK, trial_of
from .data import RunView
from .escape import esc


def trial_sessions(view: RunView) -> dict[tuple[str, str], list[int]]:
    """Each pair's counted dialogues (their session ids) in the order ``run_pass_k`` puts its
    trials: the same sessions, filtered and stably sorted by trial the same way."""
    counted = [d.session for d in view.dialogues if trial_of(d.session, view.threshold) is not None]
    out: dict[tuple[str, str], list[int]] = {}
    for s in sorted(counted, key=lambda s: s.trial):
        out.setdefault((s.scenario_id, s.persona_name), []).append(s.id)
    return out


def trials_table(view: RunView) -> str:
    """The section, or nothing for a run of one trial a pair."""
    pairs: RunPassK | None = view.trial_pairs
    if pairs is None or pairs.trials < 2:
        return ""
    sessions = trial_sessions(view)
    # The least consistent pairs first: what a lead looks for.
    ordered = sorted(pairs.pairs, key=lambda p: (p.pass_k(p.n), p.scenario_id, p.persona_name))
    rows = "".join(_row(p, sessions.get((p.scenario_id, p.persona_name), [])) for p in ordered)
    head = (
        "<tr><th>scenario × persona</th><th>trials (● passed ○ not)</th><th>passed</th>"
        "<th>pass^K (K: its trials)</th><th>mean score</th></tr>"
    )
    note = (
        '<p class="muted">A trial passed as every part of this report reads "passed": its score at or over the '
        "threshold, each --metric at its pass mark and, when resolution was judged, the problem resolved or handed "
        "over (ragtui's docs/glossary.md). pass^K: the chance that all K trials pass. "
        "Least consistent pairs first; each mark opens its dialogue.</p>"
    )
    return f'<h2>Trials per scenario × persona</h2>{note}<div class="scroll"><table>{head}{rows}</table></div>'


def _row(pair: PairTrials, session_ids: list[int]) -> str:
    marks = []
    for i, (mark, trial) in enumerate(zip(pair.marks, pair.trials, strict=True)):
        score = score_text(trial.score, threshold=trial.threshold)
        title = f'title="trial {trial.trial} · score {esc(score)}"'
        if i < len(session_ids):
            marks.append(f'<a href="#d{session_ids[i]}" {title}>{mark}</a>')
        else:  # never expected: the same sessions make both lists
            marks.append(f"<span {title}>{mark}</span>")
    mean = score_text(pair.mean_score)
    return (
        f"<tr><td>{esc(pair.scenario_id)} × {esc(pair.persona_name)}</td>"
        f'<td class="marks">{"".join(marks)}</td><td class="n">{pair.passes}/{pair.n}</td>'
        f'<td class="n">pass^{pair.n} {figure_text(pair.pass_k(pair.n))}</td><td class="n">{mean}</td></tr>'
    )
