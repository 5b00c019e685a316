"""``ragtui show``: a session's transcript with each bot turn's verdicts."""

from __future__ import annotations

from rich.panel import Panel
from rich.text import Text

from ..core.judge_quality.judge_card import agreement_text
from ..core.metrics.explain import explain_lines
from ..core.registry import metric_views
from ..core.registry.metrics import PRIMARY_METRIC
from ..core.runs.low_agreement import low_metrics
from ..core.store.labels import Label
from ..core.text.partial_text import WHO, partial_line
from ..core.text.score_text import figure_text, styled_score
from ..core.types.agreement_floor import LOW_MARK, LOW_WORDS, AgreementFloor, floor_words, is_low
from ..core.types.stored import PartialReply, StoredJudgment, StoredSession
from .dialogue_view import dialogue_verdict_text
from .output import console, model_label, session_score_text, stop_text


def verdict_text(j: StoredJudgment, threshold: float, floor: AgreementFloor | None = None) -> Text:
    verdict = j.verdict
    # Metrics other than the rubric record their own pass mark with their verdict.
    threshold = verdict.threshold if verdict.threshold is not None else threshold
    text = Text()
    text.append(f"{j.metric} v{j.version}: ", style="bold")
    if verdict.skipped:  # not applicable here, which is no failure
        text.append(f"skipped: {j.error or verdict.conclusion}", style="cyan")
        return text
    low = j.score is not None and is_low(j.details, floor or AgreementFloor())
    text.append_text(styled_score(j.score, threshold, low))
    if j.score is not None and verdict.raw_score is not None:
        text.append(f" (raw {figure_text(verdict.raw_score)})", style="dim")  # the judge's own scale, beside the fitted
    if verdict.read in ("sampled", "mixed"):  # not an expected level: not on the same scale as the others
        text.append(f" [{'sampled' if verdict.read == 'sampled' else 'partly sampled'}]", style="yellow")
    if j.model:
        text.append(f"  ({model_label(j.model, j.served_model)})", style="dim")
    if j.score is not None:  # how far this judge agrees with people, beside its score
        text.append(f"\n  {agreement_text(j.details)}", style="dim")
        if low:  # under the floor: said in words, since the score has no colour to say it
            text.append(f" · {LOW_MARK} {LOW_WORDS} ({floor_words(j.details, floor or AgreementFloor())})", style="dim")
    if j.score is None:
        text.append(f"\n{j.error or 'unscored'}", style="yellow")
        text.append("\nraw reply: ", style="dim")
        text.append(j.raw_reply[:2000])
        return text
    if verdict.criteria:
        text.append("\n" + "  ".join(f"{k} {v}" for k, v in verdict.criteria.items()))
    for index, step in enumerate(verdict.steps, start=1):
        text.append(f"\n  {index}. {step}", style="dim")
    for line in explain_lines(j.metric, j.details):
        text.append(f"\n  {line}", style="dim")
    if verdict.conclusion:
        text.append("\n→ " + verdict.conclusion)
    return text


def verdict_border(j: StoredJudgment, threshold: float, floor: AgreementFloor | None = None) -> str:
    """Red only for a real score under the pass mark: unscored is yellow, never a failure; a
    low-agreement judge's score neither red nor green."""
    if j.score is None:
        return "yellow"
    if is_low(j.details, floor or AgreementFloor()):
        return "dim"
    mark = j.verdict.threshold
    return "red" if j.score < (threshold if mark is None else mark) else "green"


# Who wrote a message, by its role: an imported conversation's human agent and notes are kept,
# shown for what they are and never judged as the bot (core/conversations/turns.py).
SPEAKER_TITLES = {"user": "customer", "bot": "bot", "agent": "human agent · not judged", "note": "note · not judged"}
SPEAKER_BORDERS = {"user": "blue", "bot": "magenta", "agent": "green", "note": "dim"}


def print_session(
    session: StoredSession,
    *,
    all_versions: bool = False,
    labels: list[Label] | None = None,
    floor: AgreementFloor | None = None,
    origin: str | None = None,
) -> None:
    """``origin``: where an imported session's conversation came from (its file and line), shown
    in place of the models, which an imported conversation has none of."""
    head = Text()
    head.append(f"Session {session.id}", style="bold")
    head.append(f"  scenario {session.scenario_id} · persona {session.persona_name} · {session.language}")
    head.append(f" · {session.turns}/{session.max_turns} turns · score ")
    low = PRIMARY_METRIC in low_metrics(session, floor or AgreementFloor())
    head.append_text(session_score_text(session, low))
    head.append(" · stop ")
    head.append_text(stop_text(session.stop_label))
    console.print(head)
    if session.status != "finished" and session.owner is not None:
        doing = "run by" if session.status == "running" else "interrupted: its process is gone —"
        console.print(Text(f"{doing} {session.owner.describe()}", style="yellow"))
    if session.status == "interrupted" and session.run_id:
        line = Text(f"continue it with: ragtui run --resume {session.run_id}", style="dim")
        console.print(line, soft_wrap=True)  # a command to copy: never wrapped
    if origin is not None:
        console.print(Text(origin, style="dim"), soft_wrap=True)
    else:
        models = {role: info.get("model") for role, info in session.config.get("roles", {}).items()}
        console.print(Text("models: " + ", ".join(f"{r}={m}" for r, m in models.items()), style="dim"))
    served = sorted({(m.model, m.served_model) for m in session.messages if m.model and m.served_model})
    if served:  # a gateway answered with another model than the one asked for
        console.print(Text("answered by: " + ", ".join(model_label(m, s) for m, s in served), style="dim"))
    if session.error:
        console.print(Text(f"error: {session.error}", style="bold red"))
    latest = session.latest_judgments()
    for message in session.messages:
        title = Text(f"turn {message.turn} · {SPEAKER_TITLES.get(message.role, message.role)}")
        if message.role == "user":
            title.append(f" ({message.source})", style="bold red" if message.source == "simulator_off_role" else "dim")
            check = message.sim_check or {}
            if check.get("retried"):
                first = check.get("first") or {}
                title.append(
                    f" · asked again after {first.get('problem')}: {first.get('why', '')}"[:120], style="yellow"
                )
        if message.cut:  # the token limit, or reply_timeout mid-answer
            title.append(f" · {message.cut}", style="bold yellow")
        console.print(
            Panel(
                Text(message.text),
                title=title,
                title_align="left",
                border_style=SPEAKER_BORDERS.get(message.role, "magenta"),
            )
        )
        if message.role != "bot":
            continue
        if message.passages:
            sources = ", ".join(dict.fromkeys(p.doc_id for p in message.passages))
            console.print(Text(f"  passages: {sources}", style="dim"))
        verdicts = [j for j in session.judgments if j.message_id == message.id]
        if not all_versions:
            verdicts = [j for j in verdicts if latest.get((j.turn, j.metric)) is j]
        for j in verdicts:
            console.print(
                Panel(
                    verdict_text(j, session.threshold, floor),
                    border_style=verdict_border(j, session.threshold, floor),
                )
            )
        for label in (lab for lab in labels or [] if lab.message_id == message.id):
            line = Text(f"  label ({label.metric}): {label.summary()}", style="magenta")
            if label.note:
                line.append(f" — {label.note}")
            console.print(line)
    for partial in session.partials:
        if partial.cancelled:  # one marked line, as the TUI says it: no text to read as an answer
            console.print(Text(f"  {partial_line(partial)}", style="yellow"))
        else:
            console.print(partial_panel(partial))
    newest = session.latest_dialogue_judgments()
    dialogue = (
        session.dialogue_judgments if all_versions else [newest[m] for m in metric_views.shown_metrics(set(newest))]
    )
    if dialogue:
        console.print(Text("Dialogue verdicts", style="bold"))
        for d in dialogue:
            status = metric_views.status(d, d.verdict.threshold)
            border = {"pass": "green", "fail": "red", "skipped": "cyan"}.get(status, "yellow")
            console.print(Panel(dialogue_verdict_text(d), border_style=border))
    elif session.kind == "imported" and not session.judgments:
        console.print(Text("Not judged: an imported conversation, as it happened.", style="dim"))
    elif session.status == "finished":
        console.print(Text("No dialogue verdicts (turned off, or the dialogue did not finish normally).", style="dim"))


def partial_panel(partial: PartialReply) -> Panel:
    """A reply whose stream failed: what arrived, kept to show what happened, never as a message."""
    who = WHO.get(partial.role, partial.role)
    title = Text(f"turn {partial.turn} · {who} · PARTIAL, never completed", style="bold yellow")
    body = Text(partial.text or "(nothing arrived)", style="dim")
    body.append(f"\n{partial.error}", style="yellow")
    return Panel(body, title=title, title_align="left", border_style="yellow")
