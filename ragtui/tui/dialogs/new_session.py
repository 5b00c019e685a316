"""The new-session modal: pick a scenario and a persona, or type a free seed question.

It opens on the last choice (scenario, persona, metrics, free question), not the first entries:
running the same pair again is the common case. Trials K > 1 make one run of K sessions of the
pair (trials 1..K, as ``ragtui run --repeat K`` plans them) for pass^k, and the estimate line
counts all K. Trials are this TUI's own (the caller passes them): they multiply the cost, so a
number chosen in another TUI, or before a restart, never applies unseen. Laid out for 80×24: the
pickers take the room that is left, and the start buttons are one line, always on screen.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Label, OptionList, SelectionList, Static
from textual.widgets.option_list import Option
from textual.widgets.selection_list import Selection

from ...core.content.scenarios import adhoc_scenario
from ...core.metrics import PRIMARY_METRIC
from ...core.types.personas import Persona
from ...core.types.scenarios import Scenario
from ..last_choice import LastChoice
from ..safe_text import field_text, one_line, plain
from ..widgets.fields import NumberField, TextField
from ..widgets.tick import TickList
from .dialog import Dialog


@dataclass(frozen=True)
class NewSessionRequest:
    scenario: Scenario
    persona: Persona
    auto_run: bool = False
    metrics: tuple[str, ...] = ()  # besides the rubric, which always runs
    trials: int = 1  # K > 1: one run of K sessions of the pair, trials 1..K


# As `ragtui run --repeat` without --yes: past it, a typo would multiply the cost by hundreds.
MAX_TRIALS = 20


def parse_trials(raw: str) -> int | str:
    """The trials field's value, or the one-line message saying why it is not one."""
    try:
        trials = int(raw.strip())
    except ValueError:
        trials = 0
    if not 1 <= trials <= MAX_TRIALS:
        return f"Trials must be a whole number from 1 to {MAX_TRIALS}, got {one_line(raw, 20)!r}."
    return trials


class NewSessionScreen(Dialog[NewSessionRequest | None]):
    BINDINGS = [
        Binding("ctrl+s", "submit", "Start"),
        Binding("ctrl+r", "start(True)", "Start and auto-run"),
    ]

    def __init__(
        self,
        scenarios: list[Scenario],
        personas: list[Persona],
        language: str,
        metrics: list[str] | None = None,
        selected: list[str] | None = None,
        *,
        last: LastChoice | None = None,
        estimate: Callable[[Scenario, Persona, tuple[str, ...], int], str] | None = None,
        trials: int = 1,
    ) -> None:
        super().__init__()
        self.last = last
        self.trials = trials  # this TUI's last, else the config's repeat: never another TUI's
        self.estimate = estimate  # tokens and cost of the chosen dialogue, without calling a model
        self.scenarios = scenarios
        self.personas = personas
        self.language = language
        self.metric_names = [m for m in (metrics or []) if m != PRIMARY_METRIC]
        self.selected = set(selected or [])

    def compose_dialog(self) -> ComposeResult:
        with Vertical(classes="dialog wide", id="new-session"):
            yield Label(plain(f"New session ({self.language}) — ctrl+s start · ctrl+r start + auto-run · Esc cancel"))
            with Horizontal(id="pickers"):
                with Vertical():
                    yield Label("Scenario")
                    yield OptionList(
                        *[
                            Option(Text(f"{one_line(s.id, 40)} — {one_line(s.question, 70)}"), id=s.id)
                            for s in self.scenarios
                        ],
                        id="scenario-list",
                    )
                with Vertical():
                    yield Label("Persona")
                    yield OptionList(
                        *[
                            Option(
                                Text(
                                    f"{one_line(p.name, 40)} — {one_line(p.description, 40)}"
                                    if p.description
                                    else one_line(p.name, 40)
                                )
                            )
                            for p in self.personas
                        ],
                        id="persona-list",
                    )
                if self.metric_names:
                    with Vertical(id="metric-picker"):
                        # The rubric always runs; space ticks the others (short: 26 columns).
                        yield Label("Metrics · space ticks")
                        yield TickList(
                            *[
                                Selection(Text(one_line(name, 26)), name, name in self.selected)
                                for name in self.metric_names
                            ],
                            id="metric-list",
                        )
            yield Label("…or a free question (replaces the scenario when not empty):")
            yield TextField(
                placeholder="e.g. How do I change the e-mail address of my account?", id="free-question", compact=True
            )
            with Horizontal(id="trials-row"):
                yield Label("Trials: ")
                yield NumberField(str(self.trials), id="trials", compact=True, max_length=4)
                yield Label(" K > 1: one run of K sessions (pass^k); ctrl+r runs all")
            yield Static("", id="new-estimate", markup=False)
            yield Static("", id="new-error", classes="error", markup=False)
            with Horizontal(classes="buttons"):
                yield Button("Start (ctrl+s)", variant="primary", id="start", compact=True)
                yield Button("Start and auto-run (ctrl+r)", variant="success", id="start-run", compact=True)
                yield Button("Cancel (Esc)", id="cancel", compact=True)

    def on_mount(self) -> None:
        last = self.last
        scenario = next((i for i, s in enumerate(self.scenarios) if last and s.id == last.scenario_id), 0)
        persona = next((i for i, p in enumerate(self.personas) if last and p.name == last.persona), 0)
        for list_id, index in (("#scenario-list", scenario), ("#persona-list", persona)):
            options = self.query_one(list_id, OptionList)
            if options.option_count:
                options.highlighted = index
        if last is not None and last.question:
            self.query_one("#free-question", Input).value = field_text(last.question)
        self.query_one("#scenario-list").focus()
        self._show_estimate()

    @on(OptionList.OptionHighlighted)
    @on(SelectionList.SelectedChanged)
    @on(Input.Changed, "#trials")
    def _show_estimate(self) -> None:
        if self.estimate is None or not self.is_mounted:
            return
        scenario_index, persona_index = self._chosen("#scenario-list"), self._chosen("#persona-list")
        if scenario_index is None or persona_index is None:
            return
        metrics: tuple[str, ...] = ()
        if self.metric_names:
            metrics = tuple(self.query_one("#metric-list", SelectionList).selected)
        trials = parse_trials(self.query_one("#trials", Input).value)
        if isinstance(trials, str):
            line = f"Estimate: {trials}"
        else:
            line = self.estimate(self.scenarios[scenario_index], self.personas[persona_index], metrics, trials)
        self.query_one("#new-estimate", Static).update(plain(line))

    def _chosen(self, list_id: str) -> int | None:
        return self.query_one(list_id, OptionList).highlighted

    def action_start(self, auto_run: bool) -> None:
        error = self.query_one("#new-error", Static)
        persona_index = self._chosen("#persona-list")
        if persona_index is None:
            error.update("Choose a persona (or create one with e on the main screen).")
            return
        question = self.query_one("#free-question", Input).value.strip()
        if question:
            scenario = adhoc_scenario(question, self.language)
        else:
            scenario_index = self._chosen("#scenario-list")
            if scenario_index is None:
                error.update("Choose a scenario or type a question.")
                return
            scenario = self.scenarios[scenario_index]
        metrics: tuple[str, ...] = ()
        if self.metric_names:
            metrics = tuple(self.query_one("#metric-list", SelectionList).selected)
        trials = parse_trials(self.query_one("#trials", Input).value)
        if isinstance(trials, str):
            error.update(plain(trials))
            return
        self.dismiss(NewSessionRequest(scenario, self.personas[persona_index], auto_run, metrics, trials))

    @on(Button.Pressed, "#start")
    def action_submit(self) -> None:
        self.action_start(False)

    @on(Button.Pressed, "#start-run")
    def _start_run(self) -> None:
        self.action_start(True)

    @on(Button.Pressed, "#cancel")
    def _cancel(self) -> None:
        self.action_cancel()

    @on(OptionList.OptionSelected, "#scenario-list")
    def _scenario_chosen(self) -> None:
        self.query_one("#persona-list").focus()  # Enter walks scenario → persona → start

    @on(OptionList.OptionSelected, "#persona-list")
    def _persona_chosen(self) -> None:
        self.action_start(False)
