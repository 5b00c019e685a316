"""The "to label" queue: the unlabelled bot turns of a run, one at a time, so a person can label
fifty turns in minutes. Only turns with a verdict of the judge are offered (a turn not yet judged
has nothing to agree with); every label moves on, so ten keys give ten labels.

Each turn shows the customer's message, the bot's answer and the judge's newest verdict. One key
each: ``1``–``5`` gives your score and moves on, ``a`` / ``d`` agree / disagree with the verdict
and move on, ``l`` opens the full label dialog (score, note, agree), ``n`` / ``p`` go to the
next / previous turn of the queue. The queue is the turns unlabelled by you when it opened;
turns labelled since stay in it (showing your label) so ``p`` can go back and change one.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

from ...core.registry.metrics import PRIMARY_METRIC
from ...core.store.labels import Label, QueueTurn, label_queue, session_labels
from ...core.types.errors import RagtuiError
from ...core.types.stored import StoredSession
from ..context import TuiServices, services
from ..dialogs.label_dialog import LabelInput, labeller_of, open_label_dialog, store_label, verdict_summary
from ..safe_text import clean_text, one_line, plain


class LabelQueueScreen(Screen[None]):
    BINDINGS = [
        Binding("n", "move(1)", "Next", tooltip="The next turn of the queue"),
        Binding("p", "move(-1)", "Prev", tooltip="The previous turn of the queue"),
        # One footer entry for the five score keys: 1–5 Score.
        *(
            Binding(str(k), f"quick_score({k})", "Score", show=k == 1, key_display="1–5", tooltip="Your score, 1–5")
            for k in range(1, 6)
        ),
        Binding("a", "quick_agree(True)", "Agree", tooltip="Agree with the judge's verdict and move on"),
        Binding("d", "quick_agree(False)", "Disagree", tooltip="Disagree with the judge's verdict and move on"),
        Binding("l", "label", "Label…", tooltip="Score, note and agree/disagree in a dialog"),
        Binding("escape", "dismiss(None)", "Back"),
    ]

    def __init__(self, run_id: str | None) -> None:
        super().__init__()
        self.run_id = run_id
        self.queue: list[QueueTurn] = []
        self.index = 0
        self._sessions: dict[int, StoredSession] = {}
        self._labels: dict[int, dict[int, Label]] = {}  # session → turn → your label (rubric)

    @property
    def ragtui(self) -> TuiServices:
        return services(self.app)

    def compose(self) -> ComposeResult:
        yield Static("", id="queue-title", markup=False)
        with VerticalScroll(id="queue-body"):
            yield Static("", id="queue-turn", markup=False)
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        try:
            # Only judged turns: the queue is for checking the judge, and a / d need its verdict.
            turns = label_queue(self.ragtui.store, labeller_of(self.ragtui), self.run_id, judged_only=True)
        except RagtuiError as exc:
            self.app.notify(str(exc), severity="error", markup=False)
            turns = []
        self.queue = [t for t in turns if not t.labelled]
        self.show()

    # -- what is shown -----------------------------------------------------------------------

    @property
    def current(self) -> QueueTurn | None:
        return self.queue[self.index] if self.queue else None

    def session(self, session_id: int) -> StoredSession:
        if session_id not in self._sessions:
            self._sessions[session_id] = self.ragtui.store.session(session_id)
        return self._sessions[session_id]

    def my_label(self, item: QueueTurn) -> Label | None:
        # Cached per session and refreshed after each save: the title counts what is left
        # over the whole queue on every key, which must stay quick for a run of 1,000 turns.
        if item.session_id not in self._labels:
            mine = labeller_of(self.ragtui)
            labels = session_labels(self.ragtui.store, item.session_id)
            self._labels[item.session_id] = {
                lab.turn: lab for lab in labels if lab.labeller == mine and lab.metric == PRIMARY_METRIC
            }
        return self._labels[item.session_id].get(item.turn)

    def left(self) -> int:
        return sum(1 for item in self.queue if self.my_label(item) is None)

    def show(self) -> None:
        scope = f"run {one_line(self.run_id, 40)}" if self.run_id else "every session"
        title = self.query_one("#queue-title", Static)
        body = self.query_one("#queue-turn", Static)
        item = self.current
        if item is None:
            title.update(
                Text(f"To label · {scope} · nothing left: every judged bot turn has your label · Escape: back")
            )
            body.update(Text("Nothing to label."))
            return
        title.update(
            Text(
                f"To label · {scope} · {self.index + 1} of {len(self.queue)} · {self.left()} left · "
                "1–5 score · a agree · d disagree · l dialog · n/p next/previous · Escape back"
            )
        )
        try:
            session = self.session(item.session_id)
        except RagtuiError as exc:
            body.update(plain(str(exc)))
            return
        body.update(self.turn_text(session, item))

    def turn_text(self, session: StoredSession, item: QueueTurn) -> Text:
        text = Text()
        text.append(
            f"Session #{session.id} · {one_line(session.scenario_id, 40)} · {one_line(session.persona_name, 30)} "
            f"· turn {item.turn}\n\n"
        )
        bot = next((m for m in reversed(session.messages) if m.role == "bot" and m.turn == item.turn), None)
        customer = next((m for m in reversed(session.messages) if m.role == "user" and m.turn == item.turn), None)
        text.append("Customer\n", style="bold")
        text.append(clean_text(customer.text if customer else "(no customer message)") + "\n\n")
        text.append("Bot\n", style="bold")
        text.append(clean_text(bot.text if bot else "(no bot answer)") + "\n\n")
        text.append("Judge\n", style="bold")
        floor = self.ragtui.config.min_judge_agreement
        text.append(clean_text(verdict_summary(session, item.turn, floor=floor)) + "\n\n")
        label = self.my_label(item)
        text.append("Your label: ", style="bold")
        if label is None:
            text.append("none yet", style="yellow")
        else:
            text.append(clean_text(label.summary()), style="green")
            if label.note:
                text.append(" — " + clean_text(label.note))
        return text

    # -- keys --------------------------------------------------------------------------------

    def action_move(self, step: int) -> None:
        if self.queue:
            self.index = max(0, min(len(self.queue) - 1, self.index + step))
            self.show()

    def _save_and_advance(self, given: LabelInput) -> None:
        item = self.current
        if item is None:
            self.app.notify("Nothing to label.", severity="warning", markup=False)
            return
        if store_label(self.app, item.session_id, item.turn, given) is not None:
            self._labels.pop(item.session_id, None)
            self.advance()

    def advance(self) -> None:
        """To the next turn still unlabelled after this one, else just the next."""
        later = [i for i in range(self.index + 1, len(self.queue)) if self.my_label(self.queue[i]) is None]
        if later:
            self.index = later[0]
        elif self.index + 1 < len(self.queue):
            self.index += 1
        self.show()

    def action_quick_score(self, score: int) -> None:
        item = self.current
        previous = self.my_label(item) if item else None
        # A quick score keeps an agree/disagree and note given earlier by the same person.
        agree = previous.agree if previous else None
        self._save_and_advance(LabelInput(score, agree, (previous.note or "") if previous else ""))

    def action_quick_agree(self, agree: bool) -> None:
        item = self.current
        previous = self.my_label(item) if item else None
        score = previous.score if previous else None
        self._save_and_advance(LabelInput(score, agree, (previous.note or "") if previous else ""))

    def action_label(self) -> None:
        item = self.current
        if item is None:
            self.app.notify("Nothing to label.", severity="warning", markup=False)
            return
        verdict = verdict_summary(
            self.session(item.session_id), item.turn, floor=self.ragtui.config.min_judge_agreement
        )

        def saved(_label: Label) -> None:
            self._labels.pop(item.session_id, None)
            self.advance()

        open_label_dialog(self.app, item.session_id, item.turn, verdict, saved)
