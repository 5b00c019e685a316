"""Every ``ragtui`` subcommand: the words that name it, the module and function that register
its parser on the subparsers (``add_parser(sub)`` unless named) and the help line
``ragtui --help`` shows for it — the one way a subcommand is added.

``--version`` and ``--help`` must answer at once, so no command module is imported to list the
commands: ``main.build_parser`` imports only the module of the command the command line names,
and lists every other command by a stub carrying its help line from here. Each module takes its
help line from here too (``help_of``), so the stub and the real parser never disagree.

A name of two words (``scenarios generate``) is a command of its own when those words come in
that order; its module registers the first word's parser, in place of the one-word command's."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Command:
    module: str  # in ragtui.cli
    help: str
    register: str = "add_parser"  # the module's function that adds the command's parser


GENERATE_HELP = (
    "generate scenarios from a knowledge folder (ragtui scenarios generate DOCS --out FILE) or mine them "
    "from real conversations (ragtui scenarios from-conversations RUN --out FILE)"
)


COMMANDS: dict[str, Command] = {
    "run": Command("run_args", "run scenarios × personas headless and print a score table"),
    "sessions": Command("store_commands", "list stored sessions", "add_sessions_parser"),
    "show": Command("store_commands", "print a session's transcript with its verdicts", "add_show_parser"),
    "export": Command("store_commands", "export sessions to CSV (one row per dialogue)", "add_export_parser"),
    "config": Command("store_commands", "print the effective configuration (keys hidden)", "add_config_parser"),
    "doctor": Command("store_commands", "check each role's endpoint and the embedded model", "add_doctor_parser"),
    "personas": Command("store_commands", "list personas", "add_personas_parser"),
    "scenarios": Command(
        "store_commands",
        "list scenarios, or --check every scenario file and policy; `scenarios generate` writes them",
        "add_scenarios_parser",
    ),
    "scenarios generate": Command("generate_command", GENERATE_HELP),
    "scenarios from-conversations": Command("generate_command", GENERATE_HELP),
    "calibrate": Command("calibrate_command", "measure a metric's agreement with human labels in a JSON/JSONL file"),
    "judge-dialogue": Command(
        "judge_dialogue_command",
        "judge stored dialogues as a whole (resolution, retention, repetition, expectations)",
    ),
    "expect": Command(
        "expect_command", "print the judge's P(met) for an expectation on a stored answer (stores nothing)"
    ),
    "label": Command(
        "label_command",
        "label a bot turn: your own 1–5 score and/or agree/disagree with the judge",
        "add_label_parser",
    ),
    "labels": Command("label_command", "list or export people's labels", "add_labels_parser"),
    "judge": Command(
        "judge_command",
        "judge a stored run never judged (an imported run): every bot turn, then each conversation",
    ),
    "rejudge": Command("rejudge_command", "judge every bot turn of a run again (a new version; old ones kept)"),
    "serve-bot": Command("serve_bot", "serve the built-in RAG bot over HTTP (a reference bot to point ragtui at)"),
    "compare": Command("compare_command", "compare two runs pair by pair (exit 1 on a regression)"),
    "runs": Command("runs_command", "list runs with scores and trends"),
    "report": Command("report_command", "write a run as one self-contained HTML file (charts, transcripts, filters)"),
    "merge": Command("merge_command", "copy the runs of other ragtui databases (CI shards, artifacts) into one"),
    "judge-card": Command("judge_card_command", "how far the judge agrees with people, per metric and language"),
    "knowledge": Command("knowledge_command", "list the knowledge base's documents, passages and skipped files"),
    "init": Command(
        "init_command", "write a ragtui.toml for your own knowledge base: its folder, language and product"
    ),
    "import": Command(
        "import_command", "bring real conversations in as a run (JSONL, CSV/TSV, helpdesk JSON), redacted"
    ),
    "realism": Command(
        "realism_command",
        "does the simulated customer talk like the real ones? two runs' customers side by side, and a blind test",
    ),
}


def help_of(name: str) -> str:
    """The help line of command ``name`` (as ``ragtui --help`` lists it)."""
    return COMMANDS[name].help


def named(words: list[str]) -> set[str]:
    """The commands ``words`` (the command line) names: a two-word name when its words come in
    order, in place of its first word alone; any one-word name among the words otherwise. Every
    word is looked at (a flag's value cannot be told from a command without the command's own
    parser): naming one more command than meant only loads one more module."""
    found = {name for name in COMMANDS if " " not in name and name in words}
    for name in COMMANDS:
        first, _, second = name.partition(" ")
        if second and any(w == first and words[i + 1 : i + 2] == [second] for i, w in enumerate(words)):
            found.discard(first)
            found.add(name)
    return found
