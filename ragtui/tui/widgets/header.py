"""The header line: session, scenario, persona, each role's model, turn n/max, running score.

No clock: a header that changes with time would make snapshots flaky and adds nothing here.
When no endpoint is usable the second line says so and how to fix it, in place of the models.
What it shows is reactive: setting ``info``, ``state``, ``endpoints``, ``problem`` or
``connecting`` redraws it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from ...core.text.score_text import styled_score
from ...core.types.agreement_floor import LOW_MARK
from ..safe_text import clean_text, one_line

if TYPE_CHECKING:  # only named in annotations: the endpoints come after the first frame
    from ...core.models.endpoints import Endpoint

ROLE_NAMES = {"user": "customer", "bot": "bot", "judge": "judge"}
NO_ENDPOINT_HELP = (
    "No model endpoint is configured (the embedded model is not available in this build). "
    "Set OPENAI_BASE_URL=http://host:port/v1 (and OPENAI_MODEL or --model NAME when the server "
    "serves several models), or add [endpoint] to ragtui.toml. Browsing sessions and editing "
    "personas still work."
)


@dataclass(frozen=True)
class SessionInfo:
    """What the header shows about the open session (replaced, never changed in place, so that
    setting it is what redraws the header)."""

    session_id: int | None = None
    scenario: str = ""
    question: str = ""  # shown instead of the scenario id for a free question
    persona: str = ""
    turn: int = 0
    max_turns: int = 0
    score: float | None = None
    threshold: float = 0.7
    judged: int = 0  # turns with a verdict: before the first, there is no score to show
    live: str = ""  # the role streaming now: "bot answering · 57 tok · 9.8 tok/s"
    # The session's rubric judge: how far it agrees with people, words first ("low agreement with
    # people (Spearman 0.10, n=18; floor 0.5)"), known from the first verdict on; ``low``: under
    # the floor, drawn with ≈.
    agreement: str = ""
    low: bool = False


class SessionHeader(Static):
    DEFAULT_CSS = """
    SessionHeader { height: auto; max-height: 5; background: $panel; color: $text; padding: 0 1; }
    """

    # A new value redraws the header. Its first two lines (the session; where the dialogue is
    # and what is streaming) never wrap, so the live token counts cannot change its height and
    # make the panes below jump while a reply streams; only the third (models or a problem) wraps.
    info: reactive[SessionInfo] = reactive(SessionInfo, repaint=False)
    state: reactive[str] = reactive("no session", repaint=False)  # where the dialogue is, from the screen
    endpoints: reactive[dict[str, Endpoint]] = reactive(dict, repaint=False)
    problem: reactive[str | None] = reactive(None, repaint=False)  # why dialogues cannot run, if they cannot
    connecting: reactive[str | None] = reactive(None, repaint=False)  # "connecting…" while the engine is built
    # Roles whose endpoint did not answer at start (role → why), marked beside their model.
    unreachable: reactive[dict[str, str]] = reactive(dict, repaint=False)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__("", markup=False, **kwargs)

    def _redraw(self) -> None:
        self.update(self.fitted(self.render_text()))

    def fitted(self, text: Text) -> Text:
        """The first two lines cut to the width with an ellipsis (the session's names are
        already shortened, so this only happens with long names at 80 columns)."""
        width = self.content_size.width
        if width <= 0:
            return text
        lines = text.split("\n", allow_blank=True)
        for line in lines[:2]:
            line.truncate(width, overflow="ellipsis")
        return Text("\n").join(lines)

    def on_resize(self) -> None:
        self._redraw()

    def watch_info(self) -> None:
        self._redraw()

    def watch_state(self) -> None:
        self._redraw()

    def watch_endpoints(self) -> None:
        self._redraw()

    def watch_problem(self) -> None:
        self._redraw()

    def watch_connecting(self) -> None:
        self._redraw()

    def watch_unreachable(self) -> None:
        self._redraw()

    def render_text(self) -> Text:
        info = self.info
        text = Text()
        if info.session_id is None:
            text.append("ragtui", style="bold")
            text.append(" · no session open · n: new session · o: sessions · F1: help")
        else:
            text.append(f"Session #{info.session_id}", style="bold")
            if info.scenario == "adhoc" and info.question:  # a free question: show the question
                text.append(f" · question “{one_line(info.question, 36)}”")
            else:
                text.append(f" · scenario {one_line(info.scenario, 30)}")
            text.append(f" · persona {one_line(info.persona, 24)}")
            text.append(f" · turn {info.turn}/{info.max_turns} · score ")
            text.append_text(styled_score(info.score, info.threshold, info.low) if info.judged else Text("–"))
            text.append("\n")
            text.append(one_line(self.state, 200), style="italic")
            if info.live:
                text.append(f" · {one_line(info.live, 100)}", style="dim")
        text.append("\n")
        if self.connecting:
            text.append(one_line(self.connecting, 200), style="italic")
        elif self.problem:
            text.append(one_line(self.problem, 400), style="bold yellow")
        else:
            dim = ""  # the models line in one dim run, broken only by an unreachable mark
            for index, (role, endpoint) in enumerate(self.endpoints.items()):
                dim += f"{' · ' if index else ''}{ROLE_NAMES.get(role, role)}: {one_line(endpoint.label, 50)}"
                if role in self.unreachable:
                    text.append(clean_text(dim), style="dim")
                    text.append(" ⚠ unreachable", style="bold yellow")
                    dim = ""
            text.append(clean_text(dim), style="dim")
            if info.agreement:  # how far the score above can be trusted, beside the judge's name
                text.append(f" · {LOW_MARK + ' ' if info.low else ''}{clean_text(info.agreement)}", style="dim")
        return text
