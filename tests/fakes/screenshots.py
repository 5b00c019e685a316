"""SVG screenshots of the TUI, made by the app itself, for the README and docs/.

``python -m tests.fakes.screenshots OUTDIR`` drives the real app with Textual's Pilot against an
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
import os
import shutil
import sys
import tempfile
from pathlib import Path

from ragtui.core.config.paths import bundled_dir
from ragtui.core.config.settings import Config, EndpointConfig
from ragtui.core.content.personas import load_personas
from ragtui.core.content.scenarios import load_scenarios
from ragtui.core.dialogue.engine import Engine
from ragtui.core.models.endpoints import resolve_endpoints
from ragtui.core.store.store import Store
from ragtui.tui.app import RagtuiApp
from stand_ins.fake_openai import FakeOpenAIServer, Reply, Responder, level_reply, schema_responder
from tests.fakes.rubric_checks import check_name

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


# P(yes) of each check for each bot answer: turn 1 correct but a little short, turn 2 a
# deflection to "contact support" (the failing turn), turn 3 correct and complete.
CHECKS = {
    BOT_1: {
        "context_answers": 0.96,
        "says_unknown": 0.03,
        "addresses": 0.93,
        "complete": 0.74,
        "other_company": 0.04,
        "polite": 0.81,
        "claim": 0.9,
    },
    BOT_2: {
        "context_answers": 0.91,
        "says_unknown": 0.22,
        "addresses": 0.12,
        "complete": 0.05,
        "other_company": 0.06,
        "polite": 0.88,
        "claim": 0.55,
    },
    BOT_3: {
        "context_answers": 0.97,
        "says_unknown": 0.02,
        "addresses": 0.96,
        "complete": 0.93,
        "other_company": 0.03,
        "polite": 0.86,
        "claim": 0.94,
    },
}
# The other judge model, asked again about turn 2: a little kinder to the deflection.
CHECKS_OTHER = {**CHECKS, BOT_2: {**CHECKS[BOT_2], "addresses": 0.31, "complete": 0.12, "claim": 0.7}}


def check_judge(answers: dict[str, dict[str, float]], default: dict[str, float] | None = None) -> Responder:
    """A judge that answers each yes/no check with P(yes) from ``answers`` (by the bot answer the
    check is about); requests with a JSON schema (dialogue verdicts) get a valid generic reply."""

    def respond(body: dict) -> Reply:
        if "response_format" in body:
            return schema_responder(body)
        text = " ".join(str(m.get("content", "")) for m in body.get("messages", []))
        # The answer under judgment is the newest one in the prompt (earlier turns come before it).
        found = [(text.rfind(answer[:80]), table) for answer, table in answers.items() if answer[:80] in text]
        table = max(found, key=lambda pair: pair[0])[1] if found else default or {}
        p = table.get(check_name(body), 0.95)  # the context_answers check shows no answer: the KB has it
        return level_reply({"yes": p, "no": 1 - p})

    return respond


def customer(lines: list[str]) -> Responder:
    """The simulated customer's scripted lines; the simulator's own checks pass (JSON schema)."""
    queue = iter(lines)

    def respond(body: dict) -> Reply:
        if "response_format" in body:
            return schema_responder(body)
        return Reply(next(queue, "Thanks. DONE"), chunk_chars=6)

    return respond


def script_showcase(server: FakeOpenAIServer) -> None:
    server.set_default(CUSTOMER, customer([CUSTOMER_2, CUSTOMER_3]))
    server.script(BOT, Reply(BOT_1, chunk_chars=6), Reply(BOT_2, chunk_chars=6), Reply(BOT_3, chunk_chars=6))
    server.set_default(JUDGE, check_judge(CHECKS))
    server.set_default(OTHER_JUDGE, check_judge(CHECKS_OTHER))


def background_defaults(server: FakeOpenAIServer) -> None:
    """Plain replies for the earlier sessions listed in the sessions browser."""
    lines = itertools.cycle(
        ["I tried that and the email still doesn't arrive. What now?", "OK, that worked. Thank you! DONE"]
    )
    levels = itertools.cycle([0.9, 0.75, 0.5, 0.8, 0.3, 0.95, 0.7])

    def judge(body: dict) -> Reply:
        if "response_format" in body:
            return schema_responder(body)
        p = next(levels)
        return level_reply({"yes": p, "no": 1 - p})

    def simulated(body: dict) -> Reply:
        return schema_responder(body) if "response_format" in body else Reply(next(lines))

    server.set_default(CUSTOMER, simulated)
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
                    # No toast in a shot: ``run_test`` draws none (what one says is in app.notices).
                    await settle()
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
    parser = argparse.ArgumentParser(prog="python -m tests.fakes.screenshots", description=__doc__.splitlines()[0])
    parser.add_argument("outdir", type=Path, help="folder for the SVG files (created if missing)")
    args = parser.parse_args(argv)
    for path in asyncio.run(shoot(args.outdir)):
        print(f"{path}  {path.stat().st_size / 1024:.0f} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
