"""Each expectation and policy over the run (``per_expectation``): its id and text, in how many
of the dialogues that checked it it was met or kept, and the dialogues where it was missed or
broken, each a link to its transcript. Expectation texts come from files: escaped like any."""

from __future__ import annotations

from ..per_expectation import ExpectationTally, per_expectation
from .data import RunView
from .escape import esc

# Past this many, a row names how many more dialogues failed it instead of listing them all.
SHOWN_FAILURES = 20


def expectations_table(view: RunView) -> str:
    """The section, or nothing when no dialogue of the run has an expectations verdict."""
    tallies = per_expectation(d.session for d in view.dialogues)
    if not tallies:
        return ""
    head = "<tr><th>id</th><th>expectation</th><th>kind</th><th>met or kept</th><th>missed or broken in</th></tr>"
    rows = "".join(_row(t) for t in tallies)
    note = '<p class="muted">Most often failed first; a check the judge could not answer counts neither way.</p>'
    return f'<h2>Expectations ({len(tallies)})</h2>{note}<div class="scroll"><table>{head}{rows}</table></div>'


def _row(t: ExpectationTally) -> str:
    passed, failed = t.words
    share = f"{t.passed} of {t.checked} dialogue(s) {passed}" if t.checked else "never checked"
    if t.unscored:
        share += f", {t.unscored} unscored"
    links = []
    for f in t.failures[:SHOWN_FAILURES]:
        at = f" turn {f.result.turn}" if f.result.turn is not None else ""
        links.append(
            f'<li><a href="#d{f.session_id}">#{f.session_id}</a> {esc(f.scenario_id)} × {esc(f.persona_name)}{at}</li>'
        )
    if len(t.failures) > SHOWN_FAILURES:
        links.append(f"<li>… and {len(t.failures) - SHOWN_FAILURES} more</li>")
    where = f'<b>{failed} in {len(t.failures)}</b><ul class="v">{"".join(links)}</ul>' if t.failures else "–"
    e = t.expectation
    return (
        f"<tr><td><code>{esc(e.id)}</code></td><td>{esc(e.text)}</td><td>{esc(t.kind)}</td>"
        f'<td class="n">{esc(share)}</td><td>{where}</td></tr>'
    )
