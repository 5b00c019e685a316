"""Progress you can see: the step meter (tokens, tokens/s, ETA) and, without a terminal, one
line per step in ``ragtui run``'s output so a CI log is never silent for long."""

from __future__ import annotations

import math
import re
from pathlib import Path

from ragtui.cli.main import main
from ragtui.cli.run_progress import format_seconds
from ragtui.core.dialogue.events import DialogueDone, DialogueStarted, MessageDone, TextDelta, TurnDone, VerdictReady
from ragtui.core.dialogue.progress import StepMeter
from ragtui.core.metrics.base import Judgment
from ragtui.testing.fake_openai import Reply

from .conftest import BOT, USER, endpoint_toml

STEP_LINE = re.compile(
    r"^#(\d+) (\S+) × (\S+) · turn (\d)/(\d) · (customer|bot|judge) · (\d+) tokens · (\d+\.\d) s.*· ETA"
)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def feed_turn(meter: StepMeter, clock: Clock, sid: int, turn: int, bot_tokens: int) -> list:
    done = []
    if turn > 1:
        for _ in range(3):
            clock.now += 0.5
            meter.observe(TextDelta(sid, turn, "user", "x"))
        done.append(meter.observe(MessageDone(sid, turn, "user", "xxx", 1, "simulator")))
    else:
        assert meter.observe(MessageDone(sid, 1, "user", "question", 1, "scenario")) is None
    clock.now += 1.0  # time to the first token
    for _ in range(bot_tokens):
        clock.now += 0.1
        meter.observe(TextDelta(sid, turn, "bot", "y"))
    assert meter.live[sid].describe(clock.now).startswith(f"bot answering · {bot_tokens} tok · 10.0 tok/s")
    done.append(meter.observe(MessageDone(sid, turn, "bot", "yyy", 2, "bot")))
    clock.now += 2.0
    judgment = Judgment(metric="rubric", score=0.8, completion_tokens=12)
    meter.observe(VerdictReady(sid, turn, judgment, 1, 1))
    done.append(meter.observe(TurnDone(sid, turn, 0.8, False, 0.8)))
    return done


def test_meter_measures_each_step_and_estimates_the_rest() -> None:
    clock = Clock()
    meter = StepMeter(clock=clock)
    meter.observe(DialogueStarted(7, "id-linking", "calm"))
    bot, judge = feed_turn(meter, clock, 7, 1, bot_tokens=20)
    assert (bot.role, bot.turn, bot.tokens) == ("bot", 1, 20) and abs(bot.seconds - 3.0) < 1e-9
    assert (judge.role, judge.tokens) == ("judge", 12) and abs(judge.seconds - 2.0) < 1e-9
    assert meter.eta(3, 0, 1) is None  # the customer's own step is not measured yet
    user, bot, judge = feed_turn(meter, clock, 7, 2, bot_tokens=20)
    assert user.role == "user" and user.tokens == 3 and abs(user.seconds - 1.5) < 1e-9
    # One turn left (1.5 + 3 + 2 s) and one waiting 3-turn dialogue (3 + 2 + 2 × 6.5 s).
    assert abs((meter.eta(3, 1, 1) or 0) - (6.5 + 18.0)) < 1e-6
    assert bot.line("id-linking × calm", 3) == "#7 id-linking × calm · turn 2/3 · bot · 20 tokens · 3.0 s (6.7 tok/s)"
    meter.observe(DialogueDone(7, "max_turns", 0.8, 2, 0))
    assert 7 not in meter.live


def test_format_seconds() -> None:
    assert format_seconds(42.4) == "42 s" and format_seconds(125) == "2 min 05 s"
    assert format_seconds(3 * 3600 + 60) == "3 h 01 min"


def test_run_without_a_terminal_prints_one_line_per_step(server, tmp_path: Path, capsys) -> None:
    config = tmp_path / "ragtui.toml"
    config.write_text('language = "en"\nmax_turns = 2\ndatabase = "runs.db"\n' + endpoint_toml(server.base_url))
    server.set_default(USER, Reply("Where do I find that setting?", chunk_chars=4))
    server.set_default(BOT, Reply("Open Settings, then Linked accounts.", chunk_chars=4))
    assert main(["run", "--config", str(config), "-s", "id-linking", "-p", "calm"]) == 0
    out = capsys.readouterr().out
    steps = [m.groups() for line in out.splitlines() if (m := STEP_LINE.match(line))]
    # Turn 1: the scenario's question (no model call) → bot, judge; turn 2: customer, bot, judge.
    assert [(g[3], g[5]) for g in steps] == [
        ("1", "bot"),
        ("1", "judge"),
        ("2", "customer"),
        ("2", "bot"),
        ("2", "judge"),
    ]
    assert all(g[1] == "id-linking" and g[2] == "calm" and g[4] == "2" for g in steps)
    bot_tokens = {int(g[6]) for g in steps if g[5] == "bot"}
    assert bot_tokens == {math.ceil(len("Open Settings, then Linked accounts.") / 4)}  # streamed pieces
    assert int(steps[2][6]) == math.ceil(len("Where do I find that setting?") / 4)
    assert "ETA after the first full turn" in out and re.search(r"ETA ≤ \d+ s", out)
