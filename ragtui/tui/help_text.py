"""The Help text, built from the screens' own bindings so it lists every key of every screen
and cannot drift from them (a test checks every screen is here); the prose around the lists
says what the keys cannot: continuing, the dialogs' common keys, what scores mean.

Built when Help opens, so the screens' modules are imported then, not at start-up.
"""

from __future__ import annotations

import importlib
import textwrap

from textual.binding import Binding, BindingsMap

# (heading, module, class) for every screen, in the order a person meets them.
SCREENS = [
    ("Main screen", "ragtui.tui.screens.main_screen", "MainScreen"),
    ("Sessions (o)", "ragtui.tui.screens.sessions_screen", "SessionsScreen"),
    ("Verdicts (v)", "ragtui.tui.screens.verdict_screen", "VerdictScreen"),
    ("To label (u)", "ragtui.tui.screens.label_queue", "LabelQueueScreen"),
    ("Runs (R)", "ragtui.tui.screens.runs_screen", "RunsScreen"),
    ("Compare (Enter on Runs)", "ragtui.tui.screens.compare_screen", "CompareScreen"),
    ("Side by side (Enter on Compare)", "ragtui.tui.screens.compare_screen", "PairScreen"),
    ("Personas (e)", "ragtui.tui.screens.personas_screen", "PersonasScreen"),
    ("Drafts (D)", "ragtui.tui.screens.draft_review", "DraftReviewScreen"),
]
EVERYWHERE = ("Every screen", "ragtui.tui.app", "RagtuiApp")

# What a screen's keys cannot say: its marks.
SCREEN_NOTES = {
    "Sessions (o)": "⑂ beside an id: a fork of another session; ↻: a replay of another's customer "
    "messages. Long names end in … to fit the width; / finds them whole.",
    "Compare (Enter on Runs)": "diverges: the turn where the two runs' customer messages first differ "
    "(– when they never do), so a score change after it may be the customer's, not the bot's.",
}

# The screens that show scores: each section says under its keys what the colours and ≈ mean,
# so the person reading that screen's keys meets it there.
SCORE_SCREENS = {
    "Main screen",
    "Sessions (o)",
    "Verdicts (v)",
    "To label (u)",
    "Runs (R)",
    "Compare (Enter on Runs)",
    "Side by side (Enter on Compare)",
}
SCORE_NOTE = (
    "Scores: red fails (under the threshold), green passes. ≈0.42 in grey: low agreement — the "
    "judge agrees with people under [min_judge_agreement], so its score is neither a pass nor a "
    "fail; the words beside a verdict say how far (Spearman or κ, n). ctrl+p Judge card: every "
    "metric's agreement."
)

KEY_NAMES = {
    "left_square_bracket": "[",
    "right_square_bracket": "]",
    "question_mark": "?",
    "slash": "/",
    "enter": "Enter",
    "escape": "Escape",
    "delete": "Delete",
    "up": "↑",
    "down": "↓",
    "home": "Home",
    "end": "End",
}

# Help is wrapped here, with a hanging indent, to fit the dialog at 80 columns.
WIDTH = 72
KEY_COLUMN = 13  # "  " + a key of up to 10 characters + " "

INTRO = """\
ragtui — watch a simulated customer talk to your support bot while a
judge scores every answer."""

OUTRO = """\
Dialogs
  Every dialog: ctrl+s submits (Enter in a one-line field too), Escape
  cancels; its footer shows its own keys.

Continuing
  s / a on a cancelled, failed or interrupted session continue it where
  it stopped, from wherever it was opened; a metric missing on the last
  turn runs first. A failed step (server down) pauses the session: s / a
  retry it once the server is back.

Runs (R): pass is the run's pass rate (pass^1: of the dialogues that
ran to the end, the share that passed, each pair's trials averaged) —
the same figure compare shows. Runs with trials (--repeat K) add
pass^K, each pair's trials as ● passed ○ not.
  A dialogue passed when it ended normally, scored at or above the
  threshold, held every --metric at its pass mark and, when resolution
  was judged, was resolved or handed over — in every view, report and
  export (docs/glossary.md). A judge's agreement does not change
  whether a dialogue passed, only whether it gates the run.

Scores
  Labels are people's scores and opinions of the judge, kept apart from
  the verdicts. A turn scores Overall/5. Under the threshold it is red
  ("fails: below 0.70"). A verdict the judge could not give is
  "unscored" — never 0 — and does not count in the dialogue score (the
  mean of the turns).

Agreement with people (≈)
  How far a judge's scores can be trusted is measured against people's
  labels (ragtui judge-card; ctrl+p Judge card shows it). A judge under
  [min_judge_agreement] has low agreement: its scores carry ≈, are
  grey, neither red nor green, and do not gate a run ("≈ below 0.70").
  Beside a verdict: "low agreement with people (Spearman 0.10, n=18;
  floor 0.5)" — the words first, the figures after.

Panes follow the newest text; scroll up to read back, scroll to the
bottom to follow again. Model output is always shown as plain text.
ctrl+p opens the command palette: every action and screen by name."""


def key_name(binding: Binding) -> str:
    """How Help writes a binding's key: its display when it has one (``1–5``), else the key."""
    if binding.key_display:
        return binding.key_display
    key = binding.key
    if key in KEY_NAMES:
        return KEY_NAMES[key]
    if len(key) > 1 and key[0] == "f" and key[1:].isdigit():
        return key.upper()
    return key


def screen_class(module: str, name: str) -> type:
    cls: type = getattr(importlib.import_module(module), name)
    return cls


def ragtui_bindings(cls: type) -> list[Binding]:
    """The bindings ragtui declares on ``cls`` and its ragtui bases (not Textual's own, such as
    Tab between fields), each key once: a subclass's binding wins over its base's."""
    found: dict[str, Binding] = {}
    for base in cls.__mro__:
        if not base.__module__.startswith("ragtui."):
            continue
        for binding in BindingsMap(base.__dict__.get("BINDINGS", [])).key_to_bindings.values():
            for one in binding:
                found.setdefault(one.key, one)
    return list(found.values())


def key_lines(cls: type) -> list[str]:
    """``  key      what it does`` for each binding of ``cls``; keys that do the same share a
    line (``d / Delete``), and the five score keys 1–5 make one."""
    keys: dict[str, list[str]] = {}
    for binding in ragtui_bindings(cls):
        what = binding.tooltip or binding.description
        if what:
            names = keys.setdefault(what, [])
            if key_name(binding) not in names:
                names.append(key_name(binding))
    indent = " " * KEY_COLUMN
    return [
        textwrap.fill(f"  {' / '.join(names):<10} {what}", WIDTH, subsequent_indent=indent)
        for what, names in keys.items()
    ]


def help_text() -> str:
    parts = [INTRO, ""]
    for heading, module, name in [*SCREENS, EVERYWHERE]:
        parts.append(heading)
        parts.extend(key_lines(screen_class(module, name)))
        if heading in SCREEN_NOTES:
            parts.append(textwrap.fill(SCREEN_NOTES[heading], WIDTH, initial_indent="  ", subsequent_indent="  "))
        if heading in SCORE_SCREENS:
            parts.append(textwrap.fill(SCORE_NOTE, WIDTH, initial_indent="  ", subsequent_indent="  "))
        parts.append("")
    parts.append(OUTRO)
    return "\n".join(parts)
