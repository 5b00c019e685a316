"""Reading a rubric judge's yes/no check request, for scripted judges (tests, screenshots).

The checks are recognised by a phrase of their English question (prompts/en/judge_probes.toml);
any other question is one of the per-claim checks ("Is the SENTENCE supported…")."""

from __future__ import annotations

CHECK_CUES = {
    "context_answers": "information needed",
    "says_unknown": "not known",
    "addresses": "deal with what",
    "complete": "every part",
    "other_company": "competitor",
    "polite": "polite",
}


def check_line(body: dict) -> str:
    """The question a check request asks (the line before the answer cue)."""
    lines = str(body["messages"][-1].get("content", "")).strip().splitlines()
    return lines[-2] if len(lines) > 1 else ""


def check_name(body: dict) -> str:
    """Which check a request asks: a name of ``CHECK_CUES``, or "claim"."""
    question = check_line(body)
    return next((name for name, cue in CHECK_CUES.items() if cue in question), "claim")


# The resolution metric's one-token steps, by the task line their request carries
# (prompts/<lang>/metric_resolution.toml): the step's old JSON schema title names them.
DIALOGUE_STEP_CUES = {
    "intent_check": ("Task: CHECK", "作業：CHECK"),
    "handover_check": ("Task: HANDOVER", "作業：HANDOVER"),
}


def dialogue_step(body: dict) -> str | None:
    """Which one-token resolution step a request asks ("intent_check", "handover_check"), or None.
    A retry carries the step's request before the correction, so every user message counts."""
    content = " ".join(str(m.get("content", "")) for m in body["messages"] if m.get("role") == "user")
    return next((name for name, cues in DIALOGUE_STEP_CUES.items() if any(c in content for c in cues)), None)
