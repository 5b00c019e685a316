"""`ragtui compare --strict` changes what every output says, not only the exit status: the exit
status, the terminal's headline, the Markdown, the JUnit (its failures count and failure
elements), the CSV and the HTML report all read one decision (``compare_verdict.decide``), so
none can say "no regression" beside an exit status of 1."""

from __future__ import annotations

import csv
import io
import re
import xml.etree.ElementTree as ET
from html import unescape
from pathlib import Path

import pytest

from ragtui.cli import output
from ragtui.cli.main import main
from ragtui.core.store.store import Store
from stand_ins.synthetic_runs import write_dialogue


@pytest.fixture(autouse=True)
def _wide_console(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(output.console, "_width", 200)


@pytest.fixture
def db(tmp_path: Path):
    store = Store.open(tmp_path / "runs.db")
    yield store
    store.close()


def trials(db: Store, run: str, scenario: str, outcomes: str) -> None:
    """A trial per character: P passes (0.9), F fails (0.3)."""
    for trial, o in enumerate(outcomes, start=1):
        write_dialogue(db, run, scenario, "calm", [0.9 if o == "P" else 0.3], trial=trial)


def compare(db: Store, tmp_path: Path, capsys, *extra: str) -> tuple[int, dict[str, str]]:
    """Run `ragtui compare r1 r2` with every report; the exit status and each output's text."""
    config = tmp_path / "c.toml"
    config.write_text(f'database = "{db.path}"\n', encoding="utf-8")
    files = {kind: tmp_path / f"out{''.join(extra)}.{kind}" for kind in ("csv", "md", "xml", "html")}
    args = ["compare", "--config", str(config), "r1", "r2", *extra]
    args += ["--csv", str(files["csv"]), "--markdown", str(files["md"])]
    args += ["--junit", str(files["xml"]), "--html", str(files["html"])]
    status = main(args)
    texts = {kind: path.read_text(encoding="utf-8-sig") for kind, path in files.items()}
    texts["terminal"] = capsys.readouterr().out
    return status, texts


def headline(terminal: str) -> str:
    """The terminal's last verdict line (the one after the "Wrote …" lines)."""
    return [line for line in terminal.splitlines() if line.strip()][-1].strip()


def html_gate(page: str) -> tuple[str, str]:
    """The HTML compare section's gate: its class (ok / bad) and its verdict text."""
    found = re.search(r'<div class="gate (ok|bad)"><b>Comparison:</b> (.*?)<ul>', page)
    assert found is not None
    return found.group(1), unescape(found.group(2))


def junit_failures(xml: str) -> tuple[int, list[str]]:
    root = ET.fromstring(xml.split("\n", 1)[1])
    failing = [c.get("name", "") for c in root.iter("testcase") if c.find("failure") is not None]
    return int(root.get("failures", "0")), failing


@pytest.mark.parametrize("strict", [False, True])
def test_every_output_says_what_the_exit_status_says_with_and_without_strict(db, tmp_path, capsys, strict):
    trials(db, "r1", "refund", "PPPP")
    trials(db, "r1", "outage", "PPFP")
    trials(db, "r2", "refund", "PPPF")  # one trial fewer: within noise at 4 trials
    trials(db, "r2", "outage", "PPFP")
    status, out = compare(db, tmp_path, capsys, *(["--strict"] if strict else []))
    said = headline(out["terminal"])
    assert status == (1 if strict else 0)
    if strict:
        assert said.startswith("regression") and "--strict" in said and "within noise" in said, said
    else:
        assert said == "no regression: within noise"
    assert f"**{said}**" in out["md"]
    assert html_gate(out["html"]) == ("bad" if strict else "ok", said)
    failures, failing = junit_failures(out["xml"])
    assert (failures, failing) == ((1, ["refund × calm"]) if strict else (0, []))
    verdicts = {r["scenario"]: r["verdict"] for r in csv.DictReader(io.StringIO(out["csv"]))}
    assert verdicts == {"refund": "regression" if strict else "within noise", "outage": "same"}
    # Each pair's verdict in the Markdown's and the terminal's table of pairs over trials.
    refund_row = next(line for line in out["md"].splitlines() if line.startswith("| refund × calm | "))
    assert ("🔴 regression" in refund_row) == strict and ("| within noise |" in refund_row) != strict
    terminal_row = next(line for line in out["terminal"].splitlines() if "refund × calm" in line)
    assert ("regression" in terminal_row) == strict


def test_strict_counts_a_resolution_drop_within_noise_in_every_output(db, tmp_path, capsys):
    for run, outcomes in (("r1", "RRRR"), ("r2", "RRRU")):  # the scores stay; one trial not resolved
        for trial, o in enumerate(outcomes, start=1):
            resolution = (1.0, "resolved") if o == "R" else (0.0, "unresolved")
            write_dialogue(db, run, "refund", "calm", [0.9], trial=trial, verdicts={"resolution": resolution})
    status, out = compare(db, tmp_path, capsys)
    assert status == 0 and headline(out["terminal"]) == "no regression: within noise"
    assert junit_failures(out["xml"]) == (0, [])
    status, out = compare(db, tmp_path, capsys, "--strict")
    said = headline(out["terminal"])
    assert status == 1 and said.startswith("regression") and "resolution" in said, said
    assert f"**{said}**" in out["md"] and html_gate(out["html"]) == ("bad", said)
    assert junit_failures(out["xml"]) == (1, ["refund × calm"])


def test_one_trial_a_pair_strict_changes_nothing_any_drop_already_counts(db, tmp_path, capsys):
    write_dialogue(db, "r1", "refund", "calm", [0.9])
    write_dialogue(db, "r2", "refund", "calm", [0.3])
    plain, out = compare(db, tmp_path, capsys)
    strict, strict_out = compare(db, tmp_path, capsys, "--strict")
    assert plain == strict == 1
    assert (
        headline(out["terminal"])
        == headline(strict_out["terminal"])
        == ("1 score regression(s), 0 resolution regression(s), 0 expectation regression(s)")
    )
    assert junit_failures(out["xml"]) == junit_failures(strict_out["xml"]) == (1, ["refund × calm"])
    (row,) = csv.DictReader(io.StringIO(out["csv"]))
    assert row["verdict"] == "regression"
