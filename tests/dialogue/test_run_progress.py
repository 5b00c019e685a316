"""Progress you can see: the step meter (tokens, tokens/s, ETA) and, without a terminal, one
line per step in ``ragtui run``'s output so a CI log is never silent for long."""

from __future__ import annotations

import math
import re
from pathlib import Path

from ragtui.cli.main import main
from ragtui.cli.run_progress import format_seconds
from ragtui.core.dialogue.events import (
    DialogueDone,
    DialogueStarted,
    DialogueVerdictReady,
    DialogueVerdictStarted,
    MessageDone,
    SimulatorChecked,
    TextDelta,
    TurnDone,
    VerdictReady,
)
from ragtui.core.dialogue.progress import StepMeter, verdict_started_line
from ragtui.core.types.calls import CallUsage
from ragtui.core.types.judgments import Judgment
from stand_ins.fake_openai import Reply

from ..cli.test_dialogue_cli import judge_two_dialogues
from ..conftest import BOT, JUDGE, USER, endpoint_toml

STEP_LINE = re.compile(
    r"^#(\d+) (\S+) × (\S+) · turn (\d)/(\d) · (customer|bot|judge) · (\d+) tokens · (\d+\.\d) s.*· ETA"
)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def feed_turn(meter: StepMeter, clock: Clock, sid: int, turn: int, bot_tokens: int, source: str = "simulator") -> list:
    done = []
    if turn > 1:
        for _ in range(3):
            clock.now += 0.5
            meter.observe(TextDelta(sid, turn, "user", "x"))
        done.append(meter.observe(MessageDone(sid, turn, "user", "xxx", 1, source)))
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


def test_an_off_role_customer_message_is_still_a_measured_step() -> None:
    clock = Clock()
    meter = StepMeter(clock=clock)
    meter.observe(DialogueStarted(7, "id-linking", "calm"))
    feed_turn(meter, clock, 7, 1, bot_tokens=20)
    user, _bot, _judge = feed_turn(meter, clock, 7, 2, bot_tokens=20, source="simulator_off_role")
    assert user is not None and user.role == "user" and abs(user.seconds - 1.5) < 1e-9
    assert meter.eta(3, 1, 1) is not None


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


def test_dialogue_verdicts_are_steps_of_their_own() -> None:
    clock = Clock()
    meter = StepMeter(clock=clock)
    meter.observe(DialogueStarted(7, "id-linking", "calm"))
    feed_turn(meter, clock, 7, 1, bot_tokens=20)
    feed_turn(meter, clock, 7, 2, bot_tokens=20)
    started = DialogueVerdictStarted(7, 2, "resolution", "id-linking × calm", 1, 3)
    assert verdict_started_line(started) == "#7 id-linking × calm · dialogue verdict 1/3 resolution · started"
    assert meter.observe(started) is None
    clock.now += 1.0
    for _ in range(5):  # the judge streams its steps' replies under the dialogue's last turn
        clock.now += 1.0
        meter.observe(TextDelta(7, 2, "judge", "{"))
    assert meter.live[7].describe(clock.now).startswith("judging the dialogue: resolution (1/3) · 5 tok")
    eta_before = meter.eta(2, 1, 1)
    done = meter.observe(DialogueVerdictReady(7, Judgment(metric="resolution", score=1.0), 1, 1))
    assert done is not None and done.verdict == "resolution" and done.tokens == 5 and abs(done.seconds - 6.0) < 1e-9
    assert done.line("id-linking × calm") == (
        "#7 id-linking × calm · dialogue verdict 1/3 resolution · done · 5 tokens · 6.0 s (0.8 tok/s)"
    )
    assert 7 not in meter.live and meter.mean("judge") == 2.0  # a verdict is not a turn's judge step
    # A waiting dialogue will take its verdicts too: the ETA counts the measured 6 s for each.
    assert eta_before is not None and abs((meter.eta(2, 1, 1) or 0) - (eta_before + 6.0)) < 1e-6
    # The verdicts not measured yet count nothing (no invented figure); a stored verdict shown again is no step.
    meter.observe(DialogueVerdictStarted(7, 2, "retention", "id-linking × calm", 2, 3))
    assert meter.observe(DialogueVerdictReady(7, Judgment(metric="repetition", score=1.0), 2, 1)) is None


def test_run_without_a_terminal_prints_each_dialogue_verdict(server, tmp_path: Path, capsys) -> None:
    config = tmp_path / "ragtui.toml"
    config.write_text('language = "en"\nmax_turns = 1\ndatabase = "runs.db"\n' + endpoint_toml(server.base_url))
    server.set_default(JUDGE, judge_two_dialogues())
    assert main(["run", "--config", str(config), "-s", "id-linking", "-p", "calm"]) == 0
    lines = capsys.readouterr().out.splitlines()
    verdicts = [line for line in lines if "dialogue verdict" in line]
    pattern = re.compile(
        r"^#1 id-linking × calm · dialogue verdict (\d)/3 (\w+) · (started|done)( · \d+ tokens · \d+\.\d s.*)? · ETA"
    )
    found = [(m.group(1), m.group(2), m.group(3)) for line in verdicts if (m := pattern.match(line))]
    assert found == [
        ("1", "resolution", "started"),
        ("1", "resolution", "done"),
        ("2", "repetition", "started"),
        ("2", "repetition", "done"),
        ("3", "expectations", "started"),
        ("3", "expectations", "done"),
    ]  # retention is off by default; the scenario has expectations
    # After the last turn's judge step and before the dialogue's end line.
    last_judge = max(i for i, line in enumerate(lines) if " · turn 1/1 · judge · " in line)
    end = next(i for i, line in enumerate(lines) if line.startswith("[1/1] #1"))
    assert last_judge < lines.index(verdicts[0]) and lines.index(verdicts[-1]) < end


def test_long_item_work_without_a_terminal_prints_a_line_every_few_seconds_and_at_the_end(capsys):
    from ragtui.cli.output import LineProgress

    now = [0.0]
    progress = LineProgress(clock=lambda: now[0])
    with progress:
        task = progress.add_task("judging", total=4, note="")
        for _ in range(3):
            now[0] += 4.0
            progress.update(task, advance=1, note="1 unscored")
        now[0] += 4.0
        progress.update(task, advance=1)
    lines = capsys.readouterr().err.splitlines()
    # 12 s in, 3 of 4 done: the first line once 10 s passed, with what is left; then the last.
    assert lines == ["judging 3/4 · 12 s · about 4 s left · 1 unscored", "judging 4/4 · 16 s"]


def test_each_step_line_says_what_its_prompt_cost_and_the_check_is_a_step(server, tmp_path: Path, capsys) -> None:
    """Sent, computed and reused prompt tokens per step, as the server reported them; the
    simulator's check of the customer message is a line of its own, before the message's."""
    config = tmp_path / "ragtui.toml"
    config.write_text('language = "en"\nmax_turns = 2\ndatabase = "runs.db"\n' + endpoint_toml(server.base_url))
    server.report_prompt_cache("llamacpp")
    assert main(["run", "--config", str(config), "-s", "id-linking", "-p", "calm"]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if " · turn " in line]
    prompt = re.compile(r"· prompt ([\d,]+) sent · ([\d,]+) computed · ([\d,]+) reused")
    whats = [re.search(r"· turn \d/2 · ([a-z ]+) · \d+ tokens", line).group(1) for line in lines]  # type: ignore[union-attr]
    assert whats == ["bot", "judge", "customer check", "customer", "bot", "judge"]
    for line in lines:
        match = prompt.search(line)
        assert match is not None, line
        sent, computed, reused = (int(g.replace(",", "")) for g in match.groups())
        assert computed + reused == sent
    # The judge's second turn reuses the beginning its checks share.
    assert int(prompt.search(lines[-1]).group(3)) > 0  # type: ignore[union-attr]


def test_a_step_whose_server_said_nothing_of_its_cache_shows_dashes() -> None:
    clock = Clock()
    meter = StepMeter(clock=clock)
    meter.observe(DialogueStarted(1, "s", "calm"))
    meter.observe(MessageDone(1, 1, "user", "q", 1, "scenario"))
    clock.now += 2.0
    usage = CallUsage(model="m", prompt_tokens=900)
    done = meter.observe(MessageDone(1, 1, "bot", "a", 2, "bot", usage=usage))
    assert done is not None and done.line().endswith("· prompt 900 sent · – computed · – reused")
    checked = meter.observe(SimulatorChecked(1, 2, {"calls": 1, "prompt_tokens": 300, "cached_tokens": 120}, 1.5))
    assert checked is not None and checked.check
    assert "· customer check · " in checked.line() and checked.line().endswith("· 180 computed · 120 reused")
    # The check's time is the customer's step's too: it is not measured twice for the ETA.
    assert meter.mean("user") is None


def test_verbose_prints_the_step_lines_on_a_terminal_too(capsys) -> None:
    from ragtui.cli.run_progress import RunProgress

    usage = CallUsage(model="m", prompt_tokens=900, cached_tokens=800)
    for verbose in (False, True):
        with RunProgress(1, 3, 0.7, {1: "id-linking × calm"}, live_mode=True, verbose=verbose) as progress:
            progress.handle(DialogueStarted(1, "id-linking", "calm"))
            progress.handle(MessageDone(1, 1, "user", "q", 1, "scenario"))
            progress.handle(MessageDone(1, 1, "bot", "a", 2, "bot", usage=usage))
        out = capsys.readouterr().out
        line = "#1 id-linking × calm · turn 1/3 · bot · 0 tokens"
        assert (line in out) is verbose
        assert ("· prompt 900 sent · 100 computed · 800 reused" in out) is verbose
