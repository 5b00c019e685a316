"""SVG screenshots of the TUI, made by the app itself, for the README.

``python -m ragtui.tui.screenshots OUTDIR`` drives the real app with Textual's Pilot against an
in-process fake OpenAI-compatible server scripted with a short Tsumugi support dialogue (an
angry customer who cannot link an Apple login; turn 2 a canned answer the judge fails), and
saves the main screen, the verdict detail, a re-judged verdict's versions, the sessions
browser, the new-session dialog and the persona editor as SVG files. Everything happens in a
temporary folder: no config, database or persona file of the user is read or written.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

from ..core.config import Config, EndpointConfig
from ..core.content.personas import load_personas
from ..core.content.scenarios import load_scenarios
from ..core.dialogue.engine import Engine
from ..core.models.endpoints import resolve_endpoints
from ..core.paths import bundled_dir
from ..core.record.store import Store
from ..testing.fake_openai import FakeOpenAIServer, Reply
from .app import RagtuiApp

SIZE = (150, 48)
CUSTOMER, BOT, JUDGE, OTHER_JUDGE = "qwen2.5:7b", "tsumugi-support-bot", "gpt-4o-mini", "qwen2.5:14b"

SCENARIO = """
[[scenario]]
id = "apple-login"
question = "I want to log in with Apple but Tsumugi says my Apple ID is \\"already linked to another Tsumugi ID\\". I only have ONE account! What is going on?"
reference = "The Apple ID is linked to another Tsumugi ID, often one created with Continue with Apple. Log in to it with Apple, add an email and password if Apple is its only login method, unlink Apple under Settings > Account > Linked services, then link Apple from the usual account."
tags = ["account", "linking"]
"""

BOT_1 = """That message means your Apple ID is already linked to a different Tsumugi ID, often one created earlier by tapping "Continue with Apple" on the sign-up screen. Each Apple account can be linked to only one Tsumugi ID.

To move the link to your usual account:
1. Log in with "Continue with Apple". This opens the other Tsumugi ID.
2. Go to Settings > Account > Linked services and tap "Unlink" next to Apple. If Apple is that account's only login method, first add an email address and password under Settings > Account > Email address.
3. Log in to your usual account and tap "Link" next to Apple on the same screen."""

CUSTOMER_2 = (
    "ANOTHER account?! I never made another account. I tapped Continue with Apple like you said and now "
    "I'm in some EMPTY account with no posts. Are you kidding me? Fix this NOW."
)
BOT_2 = (
    "I'm sorry for the inconvenience. For account issues, please contact our support team through the "
    "Help Center and they will be happy to assist you."
)
CUSTOMER_3 = "Contact support?! YOU are support. I'm in the empty account right now. What exactly do I tap?"
BOT_3 = """You're in the right place to fix it: the empty account you are in is the one holding your Apple link.
1. Apple is its only login method, so first add an email address and password under Settings > Account > Email address.
2. Go to Settings > Account > Linked services and tap "Unlink" next to Apple.
3. Log out, log in to your usual account with its email and password, and tap "Link" next to Apple there.
From then on "Continue with Apple" opens your usual account with all your posts."""


def verdict(scores: tuple[int, int, int, int, int, int], steps: list[str], conclusion: str) -> str:
    names = ("understanding", "relevance", "completeness", "correctness", "coherence", "overall")
    return json.dumps({"steps": steps, "conclusion": conclusion, **dict(zip(names, scores, strict=True))})


JUDGE_1 = verdict(
    (5, 5, 4, 5, 4, 4),
    [
        "The customer gets 'already linked to another Tsumugi ID' and believes they have only one account.",
        "The passage on linking errors says each Apple account links to one Tsumugi ID, often one made with 'Continue with...'.",
        "The answer gives that cause and the unlink-then-link steps with the right menu paths.",
        "It covers the only-login-method case: add an email address and password first.",
        "It does not acknowledge the customer's frustration, and step 2 packs two actions into one.",
    ],
    "Correct and nearly complete; the tone could be warmer for an angry customer.",
)
JUDGE_2 = verdict(
    (3, 2, 1, 3, 4, 2),
    [
        "The customer is now inside an empty Tsumugi ID after 'Continue with Apple' and is angry.",
        "The passages say this empty ID holds the Apple link and explain how to unlink it there.",
        "The answer ignores the passages and only sends the customer to support, which this customer resents.",
        "No step the customer can follow is given, so the problem stays unsolved.",
        "The apology is generic and does not address what the customer said.",
    ],
    "Deflects to support instead of answering from the passages.",
)
JUDGE_2_OTHER = verdict(
    (3, 2, 2, 3, 4, 3),
    [
        "The customer is stuck in an empty account created by 'Continue with Apple'.",
        "The knowledge base covers this exact case (linking errors), but the answer does not use it.",
        "Sending the customer to the Help Center is not wrong, just unhelpful here.",
    ],
    "Polite but unhelpful: no concrete steps.",
)
JUDGE_3 = verdict(
    (5, 5, 5, 5, 5, 5),
    [
        "The customer asks what exactly to tap while inside the empty account.",
        "The answer identifies the empty account as the one holding the Apple link, as the passage explains.",
        "It orders the steps correctly: add a login method, unlink Apple, then link it from the usual account.",
        "Every menu path matches the knowledge base.",
        "It is short, direct and answers the question asked.",
    ],
    "Correct, complete and actionable.",
)


def script_showcase(server: FakeOpenAIServer) -> None:
    stream = {"chunk_chars": 6}
    server.script(CUSTOMER, Reply(CUSTOMER_2, **stream), Reply(CUSTOMER_3, **stream))
    server.script(BOT, Reply(BOT_1, **stream), Reply(BOT_2, **stream), Reply(BOT_3, **stream))
    server.script(JUDGE, Reply(JUDGE_1), Reply(JUDGE_2), Reply(JUDGE_3))
    server.script(OTHER_JUDGE, Reply(JUDGE_2_OTHER))


def background_defaults(server: FakeOpenAIServer) -> None:
    """Plain replies for the earlier sessions listed in the sessions browser."""
    customer = itertools.cycle(
        ["I tried that and the email still doesn't arrive. What now?", "OK, that worked. Thank you! DONE"]
    )
    scores = itertools.cycle([5, 4, 3, 4, 2, 5, 4])

    def judge(_body: dict) -> Reply:
        score = next(scores)
        return Reply(verdict((score,) * 6, ["Checked the answer against the passages."], "As expected."))

    server.set_default(CUSTOMER, lambda _b: Reply(next(customer)))
    server.set_default(BOT, Reply("Open Settings > Account and follow the steps under the matching section."))
    server.set_default(JUDGE, judge)


def workspace(folder: Path, base_url: str) -> Config:
    """Personas and scenarios copied into ``folder``, named relative to it (the persona editor
    shows its folder, and ``personas/en`` reads better than a temporary path)."""
    shutil.copytree(bundled_dir("personas"), folder / "personas")
    scenarios = folder / "scenarios"
    scenarios.mkdir()
    bundled = (bundled_dir("sample_data") / "scenarios" / "en.toml").read_text(encoding="utf-8")
    (scenarios / "en.toml").write_text(bundled.replace('language = "en"\n', 'language = "en"\n' + SCENARIO, 1), "utf-8")
    config = Config(language="en", max_turns=3, threshold=0.7, database=folder / "ragtui.db")
    config.personas, config.scenarios = Path("personas"), Path("scenarios")
    config.endpoint = EndpointConfig(base_url=base_url, timeout=10.0, max_retries=0)
    for role, model in (("user", CUSTOMER), ("bot", BOT), ("judge", JUDGE)):
        config.roles[role].model = model
    return config


async def earlier_sessions(config: Config, store: Store) -> None:
    engine = Engine(config, resolve_endpoints(config), store)
    scenarios = {s.id: s for s in load_scenarios(config.scenarios, "en")}
    personas = {p.name: p for p in load_personas(config.personas, "en")}
    plan = [
        ("reset-link-expired", "calm"),
        ("multiple-accounts", "elderly"),
        ("double-charge", "skeptical"),
        ("useless", "angry"),
    ]
    dialogues = [engine.new_dialogue(scenarios[s], personas[p]) for s, p in plan]
    async for _event in engine.run_many(dialogues, concurrency=1):
        pass
    cancelled = engine.new_dialogue(scenarios["data-export"], personas["beginner"])
    async for event in cancelled.step():
        del event
    cancelled.cancel()
    await engine.aclose()


async def shoot(outdir: Path) -> list[Path]:
    outdir = outdir.resolve()
    outdir.mkdir(parents=True, exist_ok=True)
    home = Path.cwd()
    saved: list[Path] = []
    server = FakeOpenAIServer().start()
    try:
        with tempfile.TemporaryDirectory(prefix="ragtui-screenshots-") as tmp:
            os.chdir(tmp)
            config = workspace(Path(tmp), server.base_url)
            store = Store.open(config.database)
            background_defaults(server)
            await earlier_sessions(config, store)
            script_showcase(server)
            app = RagtuiApp(config, resolve_endpoints(config), store)

            async with app.run_test(size=SIZE) as pilot:

                async def settle() -> None:
                    await app.workers.wait_for_complete()
                    for _ in range(3):
                        await pilot.pause()

                async def save(name: str, title: str) -> None:
                    await settle()
                    app.clear_notifications()
                    await pilot.pause()
                    path = outdir / f"{name}.svg"
                    path.write_text(app.export_screenshot(title=title), encoding="utf-8")
                    saved.append(path)

                # A new session on the Apple scenario (first) with the angry persona (first), auto-run.
                await pilot.press("n")
                await pilot.pause()
                await pilot.press("ctrl+r")
                await settle()
                await save("main", "ragtui — a finished dialogue")

                await pilot.press("v")
                await pilot.pause()
                await pilot.press("up")  # turn 2, the one under the threshold
                await save("verdict", "ragtui — verdict detail")

                await pilot.press("r")  # re-judge turn 2 with another model
                await pilot.pause()
                await pilot.press("down", "enter")  # "Another model"
                await pilot.pause()
                app.screen.query_one("#model-name").value = OTHER_JUDGE  # type: ignore[attr-defined]
                await pilot.press("ctrl+s")
                await save("versions", "ragtui — a re-judged turn, versions side by side")
                await pilot.press("escape")

                await pilot.press("o")
                await save("sessions", "ragtui — sessions")
                await pilot.press("escape")

                await pilot.press("n")
                await pilot.pause()
                await pilot.press("tab")  # to the persona list
                await save("new_session", "ragtui — new session")
                await pilot.press("escape")

                await pilot.press("e")
                await save("personas", "ragtui — persona editor")
                await pilot.press("escape")
            store.close()
            os.chdir(home)
    finally:
        os.chdir(home)
        server.stop()
    return saved


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ragtui.tui.screenshots", description=__doc__.splitlines()[0])
    parser.add_argument("outdir", type=Path, help="folder for the SVG files (created if missing)")
    args = parser.parse_args(argv)
    for path in asyncio.run(shoot(args.outdir)):
        print(f"{path}  {path.stat().st_size / 1024:.0f} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
