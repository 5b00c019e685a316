"""The HTTP bot adapter's cost: ``ragtui run`` against ``ragtui serve-bot`` over HTTP, against
the same built-in RAG bot called in-process (``[bot] type = "builtin"``).

Three processes, so none competes with the measured one for the interpreter lock: the fake
OpenAI server (simulator, judge, and the reference bot's model; zero latency unless
``--latency``), ``ragtui serve-bot``, and the timed ``ragtui run``. Every bot turn takes one
more hop on the HTTP side: ragtui → serve-bot → fake server, instead of ragtui → fake server.
Prints dialogues per second at concurrency 1, 8 and 32 and the ratios; asserts nothing.
Usage: ``python bench/bench_bots.py [--latency 0.1] [--stream]``.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_engine import PERSONAS, ragtui_run, timed, write_workspace

DIALOGUES = {1: 20, 8: 80, 32: 160}  # enough per level that process start-up is a small share
URL = re.compile(r"http://127\.0\.0\.1:\d+\S*")


def start(command: list[str], tmp: Path, name: str) -> tuple[subprocess.Popen[str], str]:
    """Start a server process and return it with the first URL it prints."""
    log = (tmp / f"{name}.err").open("w")
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=log, text=True)
    assert process.stdout is not None
    for _ in range(5):
        line = process.stdout.readline()
        if match := URL.search(line):
            return process, match.group(0)
    process.kill()
    sys.exit(f"{name} did not start: {(tmp / f'{name}.err').read_text()[-2000:]}")


def bot_table(kind: str, url: str) -> str:
    if kind == "builtin":
        return '[bot]\ntype = "builtin"\n'
    stream = kind == "http-sse"
    body = '{ question = "{{question}}", history = "{{history}}", session_id = "{{session_id}}"'
    body += ", stream = true }" if stream else " }"
    return f'[bot]\ntype = "http"\nurl = "{url}"\nbody = {body}\nstream = "{"sse" if stream else "none"}"\n'


def run_once(tmp: Path, base_url: str, bot_url: str, kind: str, concurrency: int) -> tuple[float, int]:
    folder = Path(tempfile.mkdtemp(dir=tmp))
    dialogues = DIALOGUES[concurrency]
    config = write_workspace(folder, base_url, dialogues, concurrency)
    with config.open("a", encoding="utf-8") as handle:
        handle.write(bot_table(kind, bot_url))
    seconds, _ = timed(ragtui_run(config, dialogues, concurrency))
    sessions = -(-dialogues // len(PERSONAS)) * len(PERSONAS)
    return seconds, sessions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=0.0, help="seconds before each fake model reply")
    parser.add_argument("--stream", action="store_true", help="also measure the HTTP bot with SSE streaming")
    parser.add_argument("--repeat", type=int, default=2, help="runs per cell; the fastest counts (shared machines)")
    args = parser.parse_args()
    kinds = ["builtin", "http", *(["http-sse"] if args.stream else [])]
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        fake_cmd = [sys.executable, "-m", "stand_ins.fake_openai", "--port", "0", "--latency", str(args.latency)]
        fake, base_url = start(fake_cmd, tmp, "fake")
        serve_config = tmp / "serve.toml"
        serve_config.write_text(
            f'language = "en"\n[endpoint]\nbase_url = "{base_url}"\nmodel = "bench-model"\nmax_retries = 0\n',
            encoding="utf-8",
        )
        serve_cmd = [sys.executable, "-m", "ragtui", "serve-bot", "--port", "0", "--config", str(serve_config)]
        serve, bot_url = start(serve_cmd, tmp, "serve-bot")
        try:
            startup, _ = timed([sys.executable, "-c", "import ragtui.cli.main, ragtui.core.dialogue.engine"])
            print(
                f"[bots] fake model latency {args.latency * 1000:.0f} ms; 3 turns per dialogue; process start {startup:.2f} s"
            )
            print(f"  {'concurrency':>11}  " + "  ".join(f"{k:>22}" for k in kinds) + "  ratio http/builtin")
            for concurrency in DIALOGUES:
                rates: dict[str, float] = {}
                cells = []
                for kind in kinds:
                    runs = [run_once(tmp, base_url, bot_url, kind, concurrency) for _ in range(args.repeat)]
                    seconds, sessions = min(runs)
                    rates[kind] = sessions / seconds
                    cells.append(f"{rates[kind]:6.1f} dlg/s ({seconds:5.1f} s)")
                ratios = "  ".join(f"{k} {rates[k] / rates['builtin']:.2f}x" for k in kinds[1:])
                print(f"  {concurrency:>11}  " + "  ".join(f"{c:>22}" for c in cells) + f"  {ratios}")
        finally:
            for process in (serve, fake):
                process.terminate()
                process.wait(10)


if __name__ == "__main__":
    main()
