"""The report's list of dialogues: the filters, and each dialogue folded (``<details>``) with its
transcript and its dialogue verdicts, searched and sorted by the script. The keys in ``data-*``
attributes are indices, ids, scores and ragtui's own words, never stored text."""

from __future__ import annotations

from collections.abc import Mapping

from ...registry import metric_views
from ...store.labels import Label
from ...text.score_text import score_text
from .data import DialogueView, RunView, verdict_summary
from .escape import esc
from .transcript import transcript

# The orders of the list; the script knows each value (script.py).
SORT = (
    '<label>sort <select id="f-sort"><option value="">by id (as run)</option>'
    '<option value="score">by score, lowest first</option><option value="-score">by score, highest first</option>'
    '<option value="scenario">by scenario × persona</option></select></label>'
)


# Each outcome's word on its badge: "passed" exactly when the dialogue passed (docs/glossary.md);
# a skipped dialogue did not pass without failing the gate (or did not finish).
BADGE = {"passed": "passed", "failure": "failure", "error": "error", "skipped": "not passed"}


def _options(element_id: str, label: str, names: list[str]) -> str:
    options = "".join(f'<option value="{i}">{esc(n)}</option>' for i, n in enumerate(names))
    return f'<label>{esc(label)} <select id="{element_id}"><option value="">all</option>{options}</select></label>'


def dialogues(view: RunView) -> str:
    scenarios = {n: i for i, n in enumerate(view.scenarios)}
    personas = {n: i for i, n in enumerate(view.personas)}
    outcomes = {n: i for i, n in enumerate(view.outcomes)}
    filters = (
        '<div class="filters">'
        + _options("f-scenario", "scenario", view.scenarios)
        + _options("f-persona", "persona", view.personas)
        + _options("f-outcome", "outcome", view.outcomes)
        + '<label><input type="checkbox" id="f-failed"> failed only</label>'
        + '<label>search <input type="search" id="f-search" placeholder="any text in a dialogue"></label>'
        + SORT
        + '<span id="shown"></span></div>'
    )
    trials = max((d.session.trial for d in view.dialogues), default=1)
    items = [
        _dialogue(
            d,
            scenarios[d.session.scenario_id],
            personas[d.session.persona_name],
            outcomes[d.resolution],
            trials,
            view.labels,
        )
        for d in view.dialogues
    ]
    return "<h2>Dialogues</h2>" + filters + '<div id="dlgs">' + "".join(items) + "</div>"


def _dialogue(d: DialogueView, s: int, p: int, o: int, trials: int, labels: Mapping[int, list[Label]]) -> str:
    session = d.session
    trial = f" · trial {session.trial}/{trials}" if trials > 1 else ""
    kind = d.outcome_kind
    summary = (
        f'<summary><span class="badge {kind}">{esc(BADGE[kind])}</span>#{session.id} {esc(session.scenario_id)} × '
        f"{esc(session.persona_name)}{trial} · score {score_text(session.score, d.low, session.threshold)} · {esc(d.resolution)}"
        + (f' <span class="muted">— {esc(d.outcome_message)}</span>' if d.outcome_message else "")
        + "</summary>"
    )
    score = "" if session.score is None else repr(session.score)  # unscored: sorted as the lowest
    attributes = (
        f'class="dlg" id="d{session.id}" data-s="{s}" data-p="{p}" data-o="{o}" data-f="{int(d.failed)}" '
        f'data-id="{session.id}" data-score="{score}" data-t="{session.trial}"'
    )
    return f"<details {attributes}>{summary}{transcript(session, labels)}{_dialogue_verdicts(d)}</details>"


def _dialogue_verdicts(d: DialogueView) -> str:
    if not d.verdicts:
        return ""
    items = []
    for j in d.verdicts:
        items.append(
            f"<li><b>{esc(metric_views.label(j.metric))}</b> {esc(metric_views.cell(j))} "
            f'<span class="muted">{esc(verdict_summary(j))}</span></li>'
        )
        # How it was reached: ✓ / ✗ per expectation, each intent met or not … (its class's lines)
        items += [f'<li class="muted">{esc(line)}</li>' for line in metric_views.explain(j.metric, j.details)]
    return f'<div class="dv"><b>Dialogue verdicts</b><ul class="v">{"".join(items)}</ul></div>'
