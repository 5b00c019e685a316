"""TUI streaming cost and start-up time, against the headless engine on the same stream.

1. Streaming: one dialogue of two turns, every message 3,000 tokens (one token = one SSE chunk
   of 4 characters) streamed at >= 500 tokens/s: turn 1 bot + judge, turn 2 customer + bot +
   judge, so each of the three panes is fed 3,000-token messages. The judge's reply is a valid
   rubric verdict whose steps are long enough to reach 3,000 tokens. Timed, wall and CPU
   (``time.process_time``), from creating the dialogue to its last event having been shown:
     - headless: ``Engine.new_dialogue(...).run()`` consumed with no UI (the baseline);
     - TUI: the real ``RagtuiApp`` on a pseudo-terminal (the Linux driver writes every frame,
       escape sequences included, read by this process), the session started from the main
       screen exactly as ``n`` + ctrl+r would;
     - TUI, headless driver: the same app with ``App.run(headless=True)`` (frames composed
       but never turned into escape sequences).
   The TUI children also count, per streamed message, how often its text was updated and
   re-rendered, and how many characters those renders covered (with a whole-message re-render
   per token that would be ~tokens x length / 2), and the screen refreshes (frames) with the
   wall time each took.
2. Launch -> first frame, on a pseudo-terminal: from spawning ``python -m ragtui`` to the
   main screen's status line appearing on the terminal; against a minimal Textual app measured
   the same way, and the bare imports (``textual``, ``textual.app``, ``openai``) timed from
   spawn to exit. The ratio to hello-world is printed beside the previous release's (c0281a4:
   0.52–0.53 s, 2.9x a hello-world's 0.18 s) and the goal of 2x.

The fake server runs in its own process (this script with ``--serve``) and each measured side
in a fresh process of its own, so process CPU counts ragtui only. Sides are interleaved run by
run, so a change in the machine's load hits them alike; on a shared machine, prefer the CPU
figures and the minima. Nothing here asserts: it prints figures, ratios against the baseline
measured in the same run.
Usage: ``python bench/bench_tui.py [--tokens 3000] [--delay 0.001] [--repeat 3] [--launches 7]
[--only streaming|startup] [--cold] [--against DIR ...]``.
"""

from __future__ import annotations

import argparse
import asyncio
import fcntl
import json
import os
import pty
import select
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path

USER, BOT, JUDGE = "bench-user", "bench-bot", "bench-judge"
CHUNK_CHARS = 4  # one token per SSE chunk
SIZE = (160, 45)
HERE = Path(__file__).resolve()
CRITERIA = ("understanding", "relevance", "completeness", "correctness", "coherence", "overall")

# -- the scripted stream ----------------------------------------------------------------------

CUSTOMER_LINES = [
    "I ALREADY did what your help page says and it still does not work, are you kidding me?",
    "I open Settings, I tap Account, I tap Linked services, I tap Link next to Apple and it spins forever.",
    "My phone is an iPhone 13 and the app is up to date, I checked twice this morning.",
    "I do not want to be told to contact support again, you ARE support, so fix it now.",
    "The Apple sheet opens, I confirm with Face ID, then I land back on the same screen with nothing linked.",
]
BOT_LINES = [
    "I understand how frustrating this is, so here is exactly what to check.",
    "Each Apple ID can be linked to only one Tsumugi ID, so first make sure this Apple ID is not already linked to another account.",
    "If it is, sign in to that other account, open Settings > Account > Linked services and unlink Apple there.",
    "Then, on this account, go to Settings > Account > Linked services, tap Link next to Apple and allow access when asked.",
    "If the sheet closes without linking, turn off any content blocker for the app and try again on Wi-Fi.",
]
STEP_TEXT = (
    "The customer asks why linking an Apple login fails after following the help page. "
    "The answer checks the one-Apple-ID-per-Tsumugi-ID rule from the passage on linked services, "
    "gives the exact menu path, and covers the case where the sheet closes without linking. "
)


def prose(lines: list[str], chars: int) -> str:
    """``chars`` characters of the lines repeated, a paragraph break every five sentences."""
    out: list[str] = []
    size, i = 0, 0
    while size < chars:
        line = lines[i % len(lines)] + ("\n\n" if i % 5 == 4 else " ")
        out.append(line)
        size += len(line)
        i += 1
    return "".join(out)[:chars].rstrip() + "."


def verdict_json(chars: int) -> str:
    """A rubric verdict (5 steps) of about ``chars`` characters; the parser accepts long steps."""
    skeleton = {
        "steps": [""] * 5,
        "conclusion": "Correct and complete, but it repeats itself.",
        **dict.fromkeys(CRITERIA, 4),
    }
    per_step = max(1, (chars - len(json.dumps(skeleton))) // 5)
    steps = [f"Step {n}: " + (STEP_TEXT * (per_step // len(STEP_TEXT) + 1))[: per_step - 8] for n in range(1, 6)]
    return json.dumps({**skeleton, "steps": steps})


def serve(tokens: int, delay: float) -> None:
    """The fake server process: prints its base URL, serves until stdin closes."""
    from stand_ins.fake_openai import FakeOpenAIServer, Reply

    chars = tokens * CHUNK_CHARS
    with FakeOpenAIServer() as server:
        for model, text in (
            (USER, prose(CUSTOMER_LINES, chars)),
            (BOT, prose(BOT_LINES, chars)),
            (JUDGE, verdict_json(chars)),
        ):
            server.set_default(model, Reply(text, chunk_chars=CHUNK_CHARS, delay_per_chunk=delay))
        print(server.base_url, flush=True)
        sys.stdin.read()


# -- the measured children --------------------------------------------------------------------


def load(workspace: Path, db: str):  # noqa: ANN201 - (config, endpoints, store, scenario, persona)
    from ragtui.core.config.settings import load_config
    from ragtui.core.content.personas import load_personas
    from ragtui.core.content.scenarios import load_scenarios
    from ragtui.core.models.endpoints import resolve_endpoints
    from ragtui.core.store.store import Store

    config = load_config(workspace / "ragtui.toml")
    config.database = workspace / db
    scenario = next(s for s in load_scenarios(config.scenarios, "en") if s.id == "id-linking")
    persona = next(p for p in load_personas(config.personas, "en") if p.name == "angry")
    return config, resolve_endpoints(config), Store.open(config.database), scenario, persona


class MessageStats:
    """Per streamed message (pane + turn): deltas received, text updates, chunk renders."""

    def __init__(self) -> None:
        self.messages: dict[tuple[str, int], dict[str, float]] = {}

    def get(self, role: str, turn: int) -> dict[str, float]:
        return self.messages.setdefault(
            (role, turn),
            {"deltas": 0, "chars": 0, "first": 0.0, "last": 0.0, "updates": 0, "renders": 0, "rendered_chars": 0},
        )

    def delta(self, role: str, turn: int, text: str) -> None:
        m = self.get(role, turn)
        now = time.perf_counter()
        if not m["deltas"]:
            m["first"] = now
        m["last"] = now
        m["deltas"] += 1
        m["chars"] += len(text)

    def as_list(self) -> list[dict[str, object]]:
        return [
            {"role": r, "turn": t, **m} for (r, t), m in sorted(self.messages.items(), key=lambda kv: kv[1]["first"])
        ]


def headless_child(workspace: Path, out: Path) -> None:
    from ragtui.core.dialogue.engine import Engine
    from ragtui.core.dialogue.events import TextDelta

    async def main() -> dict[str, object]:
        config, endpoints, store, scenario, persona = load(workspace, "headless.db")
        engine = Engine(config, endpoints, store)
        stats = MessageStats()
        wall, cpu = time.perf_counter(), time.process_time()
        dialogue = engine.new_dialogue(scenario, persona)
        events = 0
        async for event in dialogue.run():
            events += 1
            if isinstance(event, TextDelta):
                stats.delta(event.role, event.turn, event.text)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        session = store.session(dialogue.session_id)
        await engine.aclose()
        store.close()
        return {
            "wall": wall,
            "cpu": cpu,
            "events": events,
            "stop": session.stop_reason,
            "score": session.score,
            "messages": stats.as_list(),
        }

    out.write_text(json.dumps(asyncio.run(main())), encoding="utf-8")


def tui_child(workspace: Path, out: Path, headless: bool) -> None:
    from textual.screen import Screen
    from textual.widget import Widget

    from ragtui.core.dialogue.events import DialogueDone, TextDelta
    from ragtui.tui.app import RagtuiApp
    from ragtui.tui.dialogs.new_session import NewSessionRequest
    from ragtui.tui.widgets.panes import MessageView, RolePane

    config, endpoints, store, scenario, persona = load(workspace, "tui-headless.db" if headless else "tui.db")
    stats = MessageStats()
    views: dict[int, tuple[str, int]] = {}  # id(MessageView) -> (role, turn) while it streams
    renders = {"all": 0}

    set_last = MessageView._set_last

    def counted_set_last(self: MessageView, text: str) -> None:
        key = views.get(id(self))
        if key is not None:
            stats.get(*key)["updates"] += 1
        set_last(self, text)

    render_content = Widget._render_content

    def counted_render(self: Widget) -> None:
        renders["all"] += 1
        if self.has_class("chunk") and (key := views.get(id(self.parent))) is not None:
            m = stats.get(*key)
            m["renders"] += 1
            content = getattr(self, "_Static__content", "")
            m["rendered_chars"] += len(getattr(content, "plain", content))
        render_content(self)

    add_delta = RolePane.add_delta

    def tracked_add_delta(self: RolePane, turn: int, fragment: str) -> None:
        add_delta(self, turn, fragment)
        if self._live is not None:
            views[id(self._live)] = (self.role, turn)

    on_timer_update = Screen._on_timer_update
    compositor_refresh = Screen._compositor_refresh
    frames = {"frames": 0, "frame_seconds": 0.0, "slowest_frame": 0.0}

    def timed_update(self: Screen) -> None:  # the screen's refresh tick: layout, render, write
        started = time.perf_counter()
        on_timer_update(self)
        took = time.perf_counter() - started
        frames["frame_seconds"] += took
        frames["slowest_frame"] = max(frames["slowest_frame"], took)

    def counted_refresh(self: Screen) -> None:
        frames["frames"] += 1
        compositor_refresh(self)

    Screen._on_timer_update = timed_update  # type: ignore[method-assign]
    Screen._compositor_refresh = counted_refresh  # type: ignore[method-assign]
    MessageView._set_last = counted_set_last  # type: ignore[method-assign]
    Widget._render_content = counted_render  # type: ignore[method-assign]
    RolePane.add_delta = tracked_add_delta  # type: ignore[method-assign]
    result: dict[str, object] = {}

    class BenchApp(RagtuiApp):
        CSS_PATH = Path(sys.modules[RagtuiApp.__module__].__file__).parent / RagtuiApp.CSS_PATH  # type: ignore[arg-type,operator]

        def on_mount(self) -> None:  # RagtuiApp.on_mount runs too (Textual walks the MRO)
            self.call_after_refresh(self.bench_start)

        def bench_start(self) -> None:
            main = self.main_screen
            assert main is not None
            show = main.view.show

            def show_and_time(event: object) -> None:
                if isinstance(event, TextDelta):
                    stats.delta(event.role, event.turn, event.text)
                show(event)  # type: ignore[arg-type]
                if isinstance(event, DialogueDone):
                    self.call_after_refresh(self.bench_done, event)

            main.view.show = show_and_time  # type: ignore[method-assign]
            frames.update(frames=0, frame_seconds=0.0, slowest_frame=0.0)
            self.t0 = time.perf_counter(), time.process_time()
            main._start_session(NewSessionRequest(scenario, persona, auto_run=True))

        def bench_done(self, event: DialogueDone) -> None:
            wall, cpu = time.perf_counter() - self.t0[0], time.process_time() - self.t0[1]
            result.update(
                wall=wall,
                cpu=cpu,
                stop=event.stop_reason,
                score=event.score,
                renders=renders["all"],
                messages=stats.as_list(),
                **frames,
            )
            self.exit()

    app = BenchApp(config, endpoints, store)
    if headless:
        app.run(headless=True, size=SIZE)
    else:
        app.run()
    store.close()
    out.write_text(json.dumps(result), encoding="utf-8")


# -- running children on a pseudo-terminal ----------------------------------------------------


def on_pty(
    command: list[str],
    env: dict[str, str],
    marker: bytes | None = None,
    timeout: float = 300.0,
    cwd: Path | None = None,
) -> dict[str, float]:
    """Run ``command`` with stdin/stdout/stderr on a pty of SIZE, draining what it writes.
    With ``marker``: seconds from spawn until the marker is on the terminal, then quit (ctrl+q)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", SIZE[1], SIZE[0], 0, 0))
    started = time.perf_counter()
    proc = subprocess.Popen(command, stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True, cwd=cwd)
    os.close(slave)
    seen, found, written = b"", None, 0
    deadline = started + timeout
    while time.perf_counter() < deadline:
        ready, _, _ = select.select([master], [], [], 0.5)
        if ready:
            try:
                data = os.read(master, 1 << 16)
            except OSError:  # the child closed the terminal
                break
            if not data:
                break
            written += len(data)
            if marker is not None and found is None:
                seen = seen[-len(marker) :] + data
                if marker in seen:
                    found = time.perf_counter() - started
                    os.write(master, b"\x11")  # ctrl+q
        elif proc.poll() is not None:
            break
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    os.close(master)
    return {"seconds": found if found is not None else float("nan"), "bytes": written, "rc": proc.returncode}


def compile_bytecode(tree: Path | None = None, cold: bool = False) -> None:
    """ragtui's modules (this one's, or those under ``tree``) compiled as pip compiles them at
    install time. Without their ``.pyc`` every launch would compile ragtui's sources again (as
    under PYTHONDONTWRITEBYTECODE), while Textual's, installed by pip, are compiled: the
    comparison would time the compiler. ``cold``: the opposite, every ``.pyc`` of ragtui removed
    (and none written), to compare with figures measured that way."""
    import compileall
    import shutil

    import ragtui

    package = tree / "ragtui" if tree else Path(ragtui.__file__).parent
    if cold:
        for cache in package.rglob("__pycache__"):
            shutil.rmtree(cache)
    else:
        compileall.compile_dir(package, quiet=1)


def child_env(workspace: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}
    env.update(TERM="xterm-256color", COLORTERM="truecolor", COLUMNS=str(SIZE[0]), LINES=str(SIZE[1]))
    for name in ("XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME"):
        env[name] = str(workspace / "xdg" / name.lower())
    return env


def run_child(mode: str, workspace: Path, env: dict[str, str]) -> dict[str, object]:
    out = workspace / f"{mode}.json"
    out.unlink(missing_ok=True)
    command = [sys.executable, str(HERE), f"--{mode}-child", str(workspace), str(out)]
    if mode == "tui":
        terminal = on_pty(command, env)
    else:
        done = subprocess.run(command, env=env, capture_output=True, text=True)
        terminal = {"bytes": 0, "rc": done.returncode}
        if done.returncode:
            sys.exit(f"{mode} child failed:\n{done.stderr[-3000:]}")
    if not out.exists():
        sys.exit(f"{mode} child wrote no result (exit {terminal['rc']})")
    result = json.loads(out.read_text(encoding="utf-8"))
    if "wall" not in result:
        sys.exit(f"{mode} child ended before the dialogue did (exit {terminal['rc']})")
    result["terminal_bytes"] = terminal["bytes"]
    for name in ("tui.db", "headless.db", "tui-headless.db"):
        (workspace / name).unlink(missing_ok=True)  # every run starts on an empty database
    return result


# -- the report -------------------------------------------------------------------------------


def streaming(workspace: Path, env: dict[str, str], repeat: int, tokens: int) -> None:
    runs: dict[str, list[dict[str, object]]] = {"headless": [], "tui": [], "tui-headless": []}
    for _ in range(repeat):  # interleaved, so drift in the machine's load hits every side alike
        for mode in runs:
            runs[mode].append(run_child(mode, workspace, env))
    med = {mode: {k: statistics.median(float(r[k]) for r in rs) for k in ("wall", "cpu")} for mode, rs in runs.items()}
    base = runs["headless"][0]
    msgs = base["messages"]
    print(
        f"[streaming] 1 dialogue, 2 turns, {len(msgs)} streamed messages of {tokens} tokens "
        f"({CHUNK_CHARS} chars/token, one SSE chunk each); median of {repeat} runs per side"
    )
    for m in msgs:
        rate = (m["deltas"] - 1) / (m["last"] - m["first"]) if m["last"] > m["first"] else float("nan")
        print(
            f"  stream {m['role']:5} turn {m['turn']}: {m['deltas']:.0f} deltas, {m['chars']:.0f} chars, {rate:5.0f} tokens/s"
        )
    print(
        f"  outcome: headless {base['stop']} score {base['score']}, TUI {runs['tui'][0]['stop']} score {runs['tui'][0]['score']}"
    )
    h = med["headless"]
    for mode, label in (
        ("headless", "headless engine (baseline)"),
        ("tui", "TUI on a terminal (pty)"),
        ("tui-headless", "TUI, headless driver"),
    ):
        m = med[mode]
        walls = ", ".join(f"{float(r['wall']):.2f}" for r in runs[mode])
        cpus = ", ".join(f"{float(r['cpu']):.2f}" for r in runs[mode])
        print(
            f"  {label:28} wall {m['wall']:6.2f} s [{walls}]  CPU {m['cpu']:6.2f} s [{cpus}]  "
            f"CPU/wall {m['cpu'] / m['wall']:4.0%}"
        )
    for mode, label in (("tui", "TUI (pty)"), ("tui-headless", "TUI (headless driver)")):
        m = med[mode]
        print(
            f"  RATIO {label} / headless: wall {m['wall'] / h['wall']:.3f}x   CPU {m['cpu'] / h['cpu']:.2f}x "
            f"(+{m['cpu'] - h['cpu']:.2f} s CPU for the UI, {(m['cpu'] - h['cpu']) / len(msgs):.2f} s per message)"
        )
    tui = runs["tui"][0]
    print(
        f"  TUI on the pty: {tui['terminal_bytes'] / 1e6:.1f} MB of terminal output, {tui['renders']} widget renders in all"
    )
    for mode, label in (("tui", "pty"), ("tui-headless", "headless driver")):
        r = runs[mode][0]
        print(
            f"  screen refreshes ({label}, first run): {r['frames']} ({r['frames'] / r['wall']:.1f}/s), "
            f"{r['frame_seconds'] / max(r['frames'], 1) * 1000:.0f} ms wall each on average "
            f"(layout + render + write), slowest {r['slowest_frame'] * 1000:.0f} ms"
        )
    print("  per streamed message in the TUI (first pty run): text updates and chunk re-renders vs deltas")
    for m in tui["messages"]:
        full = m["deltas"] * m["chars"] / 2  # what one whole-message render per token would cover
        print(
            f"    {m['role']:5} turn {m['turn']}: {m['deltas']:.0f} deltas -> {m['updates']:.0f} updates, "
            f"{m['renders']:.0f} chunk renders covering {m['rendered_chars'] / 1e3:.0f} K chars "
            f"({m['rendered_chars'] / max(m['chars'], 1):.1f}x the message; per-token full re-render ~{full / 1e6:.0f} M chars)"
        )


# The previous release's first frame (issue 53, measured on c0281a4 alternated with b148c10 in one
# run): ragtui 0.52–0.53 s against a hello-world Textual app's 0.18 s, 2.9x; the goal is 2x.
PREVIOUS_RELEASE = "c0281a4"
PREVIOUS_FIRST_FRAME = 0.525  # seconds, the middle of 0.52–0.53
PREVIOUS_HELLO = 0.18
PREVIOUS_RATIO = 2.9
GOAL_RATIO = 2.0

HELLO = """\
from textual.app import App
from textual.widgets import Footer, Header, Static
class Hello(App):
    def compose(self):
        yield Header()
        yield Static("HELLO-FRAME")
        yield Footer()
Hello().run()
"""


def startup(workspace: Path, env: dict[str, str], launches: int, against: list[Path] | None = None) -> None:
    py = sys.executable

    def timed(command: list[str]) -> float:
        started = time.perf_counter()
        subprocess.run(command, env=env, check=True, capture_output=True)
        return time.perf_counter() - started

    # Launched from the workspace: from a checkout, `python -m` would put the checkout's ragtui
    # first on the path, whatever PYTHONPATH names (--against).
    def first_frame(command: list[str], marker: bytes, launch_env: dict[str, str] = env) -> float:
        return on_pty(command, launch_env, marker, timeout=30, cwd=workspace)["seconds"]

    ragtui = [py, "-m", "ragtui", "--config", str(workspace / "ragtui.toml")]
    measures = {
        "python -c pass": lambda: timed([py, "-c", "pass"]),
        "python -c 'import textual'": lambda: timed([py, "-c", "import textual"]),
        "python -c 'import textual.app'": lambda: timed([py, "-c", "import textual.app"]),
        "python -c 'import openai'": lambda: timed([py, "-c", "import openai"]),
        "python -c 'import textual.app, openai'": lambda: timed([py, "-c", "import textual.app, openai"]),
        "hello-world Textual app, first frame": lambda: first_frame([py, "-c", HELLO], b"HELLO-FRAME"),
        "python -m ragtui, first frame": lambda: first_frame(ragtui, b"Press n to start"),
    }
    for tree in against or ():  # another ragtui's sources (a release's), alternated in the same run
        other = {**env, "PYTHONPATH": str(tree.resolve())}
        # its own database: a newer ragtui's schema is one an older one refuses to open
        theirs = [*ragtui, "--db", str(workspace / f"launch-{tree.name}.db")]
        measures[f"ragtui of {tree.name}, first frame"] = lambda other=other, theirs=theirs: first_frame(  # type: ignore[misc]
            theirs, b"Press n to start", other
        )
    rows: dict[str, list[float]] = {label: [] for label in measures}
    for _ in range(launches):  # round-robin, so a change in the machine's load hits every row alike
        for label, measure in measures.items():
            rows[label].append(measure())
    print(f"[launch] process start -> exit, or -> first frame on a {SIZE[0]}x{SIZE[1]} pty; {launches} launches each")
    for label, values in rows.items():
        print(f"  {label:38} median {statistics.median(values):6.3f} s  min {min(values):6.3f} s")
    ours, hello = rows["python -m ragtui, first frame"], rows["hello-world Textual app, first frame"]
    for name, pick in (("median", statistics.median), ("min", min)):
        print(
            f"  RATIO ragtui / hello-world first frame ({name}) = {pick(ours) / pick(hello):.2f}x "
            f"(+{(pick(ours) - pick(hello)) * 1000:.0f} ms)"
        )
    for tree in against or ():
        theirs = rows[f"ragtui of {tree.name}, first frame"]
        print(
            f"  RATIO ragtui of {tree.name} / hello-world first frame (median) = "
            f"{statistics.median(theirs) / statistics.median(hello):.2f}x; this ragtui / it = "
            f"{statistics.median(ours) / statistics.median(theirs):.2f}x"
        )
    ratio = statistics.median(ours) / statistics.median(hello)
    print(
        f"  against {PREVIOUS_RELEASE} ({PREVIOUS_FIRST_FRAME:.3f} s, {PREVIOUS_RATIO}x a hello-world's {PREVIOUS_HELLO} s): "
        f"first frame {statistics.median(ours) / PREVIOUS_FIRST_FRAME:.2f}x its figure, "
        f"ratio to hello-world {ratio:.2f}x against its {PREVIOUS_RATIO}x "
        f"({'within' if ratio <= GOAL_RATIO else 'over'} the goal of {GOAL_RATIO:g}x; medians, this machine now)"
    )
    both = rows["python -c 'import textual.app, openai'"]
    print(
        f"  ragtui first frame - python -c 'import textual.app, openai' (median) = "
        f"{(statistics.median(ours) - statistics.median(both)) * 1000:.0f} ms"
    )


def write_workspace(folder: Path, base_url: str) -> None:
    (folder / "ragtui.toml").write_text(
        'language = "en"\nmax_turns = 2\ndatabase = "launch.db"\n'
        f'[endpoint]\nbase_url = "{base_url}"\nmax_retries = 0\ntimeout = 60\n'
        f'[roles.user]\nmodel = "{USER}"\n[roles.bot]\nmodel = "{BOT}"\n[roles.judge]\nmodel = "{JUDGE}"\n',
        encoding="utf-8",
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, default=3000, help="tokens per streamed message")
    parser.add_argument(
        "--delay",
        type=float,
        default=0.001,
        help="seconds between two streamed tokens (the event loop rounds sleeps up to whole ms)",
    )
    parser.add_argument("--repeat", type=int, default=3, help="streaming runs per side")
    parser.add_argument("--launches", type=int, default=7, help="launches per start-up figure")
    parser.add_argument("--only", choices=("streaming", "startup"), help="run one of the two parts")
    parser.add_argument(
        "--cold", action="store_true", help="ragtui's modules without bytecode, compiled at every launch"
    )
    parser.add_argument(
        "--against",
        type=Path,
        action="append",
        help="a folder holding another ragtui's package (e.g. `git archive c0281a4 ragtui | tar -x -C DIR`), "
        "launched alternately with this one",
    )
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--headless-child", nargs=2, type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--tui-child", nargs=2, type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--tui-headless-child", nargs=2, type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        return serve(args.tokens, args.delay)
    if args.headless_child:
        return headless_child(*args.headless_child)
    if args.tui_child:
        return tui_child(*args.tui_child, headless=False)
    if args.tui_headless_child:
        return tui_child(*args.tui_headless_child, headless=True)

    server = subprocess.Popen(
        [sys.executable, str(HERE), "--serve", "--tokens", str(args.tokens), "--delay", str(args.delay)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        base_url = server.stdout.readline().strip()
        with tempfile.TemporaryDirectory() as tmp:
            workspace = Path(tmp)
            write_workspace(workspace, base_url)
            env = child_env(workspace)
            for tree in [None, *(args.against or ())]:
                compile_bytecode(tree, cold=args.cold)
            if args.cold:
                env["PYTHONDONTWRITEBYTECODE"] = "1"
            print(
                f"fake server in process {server.pid} at {base_url}; Python {sys.version.split()[0]}, "
                f"textual {__import__('importlib.metadata').metadata.version('textual')}"
            )
            if args.only != "startup":
                streaming(workspace, env, args.repeat, args.tokens)
            if args.only != "streaming":
                startup(workspace, env, args.launches, args.against)
    finally:
        assert server.stdin is not None
        server.stdin.close()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
