"""What a support lead reads in ``ragtui report RUN --html FILE`` besides the summary: each pair's
trials, each expectation over the run, the run's facts (bot, models, limits, tokens and cost),
the passages behind each answer, people's labels and the heat map's legend."""

from __future__ import annotations

import json
import re
from pathlib import Path

from ragtui.cli.main import main
from ragtui.core.store.labels import save_label
from ragtui.core.store.store import Store
from ragtui.core.types.judgments import Judgment
from ragtui.core.types.passages import Passage
from stand_ins.synthetic_runs import write_dialogue


def section(page: str, heading: str) -> str:
    """The page from ``<h2>heading`` to the next heading."""
    start = page.index(f"<h2>{heading}")
    end = page.find("<h2>", start + 4)
    return page[start : end if end > 0 else len(page)]


def report(db: Path, run_id: str, tmp_path: Path, *extra: str) -> str:
    out = tmp_path / "report.html"
    assert main(["report", "--db", str(db), run_id, "--html", str(out), *extra]) == 0
    return out.read_text(encoding="utf-8")


def test_each_pairs_trials_as_marks_with_pass_k(tmp_path: Path, capsys):
    store = Store.open(tmp_path / "runs.db")
    refund = {}
    for trial in (1, 2, 3):
        write_dialogue(store, "t1", "outage", "calm", [0.9], trial=trial)
        refund[trial] = write_dialogue(store, "t1", "refund", "calm", [0.9 if trial < 3 else 0.2], trial=trial)
    store.close()
    page = report(tmp_path / "runs.db", "t1", tmp_path)
    capsys.readouterr()
    table = section(page, "Trials per scenario × persona")
    rows = re.findall(r"<tr><td>([^<]*)</td>(.*?)</tr>", table)
    assert [name for name, _cells in rows] == ["refund × calm", "outage × calm"]  # least consistent first
    text = {name: re.sub(r"<[^>]+>", " ", cells).split() for name, cells in rows}
    assert text["refund × calm"] == ["●", "●", "○", "2/3", "pass^3", "0.00", "0.67"]
    assert text["outage × calm"] == ["●", "●", "●", "3/3", "pass^3", "1.00", "0.90"]
    # Each mark opens its trial's dialogue.
    refund_cells = dict(rows)["refund × calm"]
    assert re.findall(r'href="#d(\d+)"', refund_cells) == [str(refund[t]) for t in (1, 2, 3)]
    assert f'id="d{refund[3]}"' in page


def test_a_run_of_one_trial_a_pair_has_no_trials_table(tmp_path: Path, capsys):
    store = Store.open(tmp_path / "runs.db")
    write_dialogue(store, "r1", "outage", "calm", [0.9])
    store.close()
    page = report(tmp_path / "runs.db", "r1", tmp_path)
    capsys.readouterr()
    assert "Trials per scenario × persona" not in page


def expectation(eid: str, text: str, status: str, turn: int | None = None, **kind: str) -> dict:
    e = {"id": eid, "text": text, "form": "judged", "polarity": "must", "origin": "scenario", **kind}
    return {"expectation": e, "status": status, "turn": turn, "checks": [], "error": None}


def with_expectations(store: Store, session_id: int, *results: dict) -> None:
    details = {"results": list(results), "summary": "expectations checked"}
    store.add_dialogue_judgment(session_id, Judgment("expectations", 0.5, details, raw_reply="x"))


def test_each_expectation_met_in_how_many_dialogues_and_missed_in_which(tmp_path: Path, capsys):
    store = Store.open(tmp_path / "runs.db")
    ids = [write_dialogue(store, "r1", "refund", persona, [0.9, 0.8]) for persona in ("calm", "angry", "terse")]
    no_pii = {"polarity": "must_not", "origin": "policy"}
    with_expectations(
        store,
        ids[0],
        expectation("deadline", "names the 30-day deadline", "met", 1),
        expectation("no-pii", "asks for a <card> number", "kept", **no_pii),
    )
    with_expectations(
        store,
        ids[1],
        expectation("deadline", "names the 30-day deadline", "missed"),
        expectation("no-pii", "asks for a <card> number", "broken", 2, **no_pii),
    )
    with_expectations(
        store,
        ids[2],
        expectation("deadline", "names the 30-day deadline", "unscored"),
        expectation("no-pii", "asks for a <card> number", "broken", 1, **no_pii),
    )
    write_dialogue(store, "r1", "outage", "calm", [0.9])  # no expectations: not counted
    store.close()
    page = report(tmp_path / "runs.db", "r1", tmp_path)
    capsys.readouterr()
    table = section(page, "Expectations (2)")
    rows = re.findall(r"<tr><td><code>([^<]*)</code></td>(.*?)</tr>", table)
    assert [eid for eid, _ in rows] == ["no-pii", "deadline"]  # broken in 2 of 3 before missed in 1 of 2
    text = {eid: " ".join(re.sub(r"<[^>]+>", " ", cells).split()) for eid, cells in rows}
    assert text["no-pii"] == (
        f"asks for a &lt;card&gt; number policy 1 of 3 dialogue(s) kept broken in 2 "
        f"#{ids[1]} refund × angry turn 2 #{ids[2]} refund × terse turn 1"
    )
    assert text["deadline"] == (
        f"names the 30-day deadline expect 1 of 2 dialogue(s) met, 1 unscored missed in 1 #{ids[1]} refund × angry"
    )
    links = re.findall(r'href="#d(\d+)"', table)
    assert links == [str(ids[1]), str(ids[2]), str(ids[1])] and all(f'id="d{i}"' in page for i in links)


def test_a_run_without_expectations_has_no_expectations_table(tmp_path: Path, capsys):
    store = Store.open(tmp_path / "runs.db")
    write_dialogue(store, "r1", "outage", "calm", [0.9])
    store.close()
    page = report(tmp_path / "runs.db", "r1", tmp_path)
    capsys.readouterr()
    assert "<h2>Expectations" not in page


def recorded_run(db: Path) -> int:
    """A dialogue as ``ragtui run`` records one: each role's endpoint in the session's config (here
    with a key-like field a report must never show), and each model call's tokens."""
    store = Store.open(db)
    sid = write_dialogue(store, "r1", "refund", "calm", [0.9, 0.8])
    config = {
        "roles": {
            "user": {"model": "cust-model", "base_url": "http://127.0.0.1:9/v1", "api_key": "sk-SECRET-user"},
            "judge": {"model": "judge-model", "base_url": "http://127.0.0.1:9/v1"},
        },
        "bot": "HttpBot",
        "bot_settings": {
            "type": "http",
            "url": "http://support.example/chat",
            "headers": ["X-Api-Key"],
            "api_key": "sk-SECRET-bot",
        },
    }
    sql = [
        ("UPDATE sessions SET config = ?, max_turns = 6 WHERE id = ?", [json.dumps(config), sid]),
        (
            "UPDATE messages SET model = 'cust-model', prompt_tokens = 100, completion_tokens = 10 "
            "WHERE role = 'user' AND source = 'simulator'",
            [],
        ),
        (
            "UPDATE messages SET model = 'bot-model', prompt_tokens = 1000, completion_tokens = 200, cached_tokens = 600 "
            "WHERE role = 'bot'",
            [],
        ),
        ("UPDATE judgments SET model = 'judge-model', prompt_tokens = 500, completion_tokens = 5", []),
    ]
    store.write("as a run records it", lambda: [store._db.conn.execute(q, p) for q, p in sql])
    store.close()
    return sid


def test_the_run_facts_name_bot_models_limits_tokens_and_cost(tmp_path: Path, capsys):
    recorded_run(tmp_path / "runs.db")
    config = tmp_path / "ragtui.toml"
    config.write_text(
        'database = "runs.db"\n[prices]\ncust-model = { input = 1.0, output = 2.0 }\n'
        "bot-model = { input = 10.0, output = 20.0 }\njudge-model = { input = 3.0, output = 6.0 }\n"
    )
    page = report(tmp_path / "runs.db", "r1", tmp_path, "--config", str(config))
    capsys.readouterr()
    facts = section(page, "Run facts")
    cells = dict(re.findall(r"<tr><th>([^<]*)</th><td>([^<]*)</td></tr>", facts))
    assert cells["bot"] == "HttpBot · type http · url http://support.example/chat"
    assert cells["customer (simulator) model"] == "cust-model"
    assert cells["Judge model(s)"] == "judge-model"
    assert cells["max turns"] == "6" and cells["threshold"] == "0.70"
    assert "SECRET" not in page and "X-Api-Key" not in page
    rows = [
        re.sub(r"<[^>]+>", " ", r).split() for r in re.findall(r"<tr><td>(.*?)</tr>", facts.split("Tokens and cost")[1])
    ]
    # step, model, calls, tokens in, computed, reused, tokens out, cost
    assert ["user", "cust-model", "1", "100", "–", "–", "10", "$0.0001"] in rows
    assert ["bot", "bot-model", "2", "2,000", "800", "1,200", "400", "$0.0280"] in rows
    assert ["judge", "judge-model", "2", "1,000", "–", "–", "10", "$0.0031"] in rows
    assert "Total: 3,100 tokens in, 420 out; cost $0.0312" in facts


def test_a_model_without_a_price_is_named_not_summed(tmp_path: Path, capsys):
    recorded_run(tmp_path / "runs.db")
    page = report(tmp_path / "runs.db", "r1", tmp_path)
    capsys.readouterr()
    facts = section(page, "Run facts")
    assert "cost no price for bot-model, cust-model, judge-model (set [prices] in the config)" in facts


def test_each_answer_shows_its_passages_folded_and_peoples_labels(tmp_path: Path, capsys):
    store = Store.open(tmp_path / "runs.db")
    sid = write_dialogue(store, "r1", "refund", "calm", [0.9, 0.4])
    passages = [
        Passage("faq/refunds.md", "Refunds", "Refunds within <b>30 days</b>.", 0.834),
        Passage("faq/shipping.md", "", "Ships in 2 days.", 0.41),
    ]
    first = [p.to_dict() for p in passages]
    store.write(
        "passages",
        lambda: store._db.conn.execute(
            "UPDATE messages SET passages = ? WHERE session_id = ? AND role = 'bot' AND turn = 1",
            [json.dumps(first), sid],
        ),
    )
    save_label(store, sid, 1, score=4, note="right <i>policy</i>", labeller="ana")
    save_label(store, sid, 2, agree=False, labeller="ben")
    store.close()
    page = report(tmp_path / "runs.db", "r1", tmp_path)
    capsys.readouterr()
    dialogue = page.split(f'id="d{sid}"')[1]
    turn1, turn2 = dialogue.split("bot · turn 1")[1].split("bot · turn 2")
    # Folded: a <details> without `open`, its summary saying how many.
    assert '<details class="ps"><summary>2 passage(s) retrieved</summary>' in turn1
    assert "<b>Refunds</b>" in turn1 and "faq/refunds.md · score 0.83" in turn1
    assert "Refunds within &lt;b&gt;30 days&lt;/b&gt;." in turn1
    assert "<b>faq/shipping.md</b>" in turn1 and "faq/shipping.md · score 0.41" in turn1  # no title: its file
    assert "passage(s) retrieved" not in turn2
    assert "<b>rubric</b> 4/5 · ana" in turn1 and "right &lt;i&gt;policy&lt;/i&gt;" in turn1
    assert "<b>rubric</b> disagrees with v1 · ben" in turn2 and "4/5" not in turn2


def test_the_heat_map_has_a_legend_of_its_own_colours(tmp_path: Path, capsys):
    store = Store.open(tmp_path / "runs.db")
    write_dialogue(store, "r1", "outage", "calm", [0.9])
    write_dialogue(store, "r1", "refund", "angry", [None])  # judged, never scored
    store.close()
    page = report(tmp_path / "runs.db", "r1", tmp_path)
    capsys.readouterr()
    figure = page.split("<figcaption>Scenario × persona (mean score)</figcaption>")[1].split("</figure>")[0]
    legend, heat_map = figure.split('<div class="legend">')[1].split("</div>", 1)
    assert "threshold 0.7" in legend and ">0.0<" in legend and ">0.5<" in legend and ">1.0<" in legend
    assert "red at 0, amber at 0.5, green at 1" in legend
    swatches = dict(re.findall(r'fill="(#[0-9a-f]{6})" class="sw"/><text[^>]*>([^<]*)<', legend))
    assert set(swatches.values()) == {"no score (unscored)", "no dialogue", "≈ low-agreement judge"}
    cells = dict((tip, fill) for fill, tip in re.findall(r'fill="(#[0-9a-f]{6})"><title>([^<]*)</title>', heat_map))
    greys = {words: fill for fill, words in swatches.items()}
    assert cells["refund × angry: unscored over 1 dialogue(s)"] == greys["no score (unscored)"]
    assert cells["outage × angry: none"] == cells["refund × calm: none"] == greys["no dialogue"]
    assert greys["no score (unscored)"] != greys["no dialogue"]


def test_search_and_sort_read_numbers_the_page_wrote(tmp_path: Path, capsys):
    store = Store.open(tmp_path / "runs.db")
    write_dialogue(store, "r1", "outage", "calm", [0.9, 0.45])
    write_dialogue(store, "r1", "refund", "<b>angry</b>", [None])
    store.close()
    page = report(tmp_path / "runs.db", "r1", tmp_path)
    capsys.readouterr()
    assert '<input type="search" id="f-search"' in page and '<select id="f-sort">' in page
    assert '<option value="score">by score, lowest first</option>' in page
    values = re.findall(r'data-(id|score|t)="([^"]*)"', page)
    assert {k for k, _ in values} == {"id", "score", "t"}
    assert all(re.fullmatch(r"\d+(\.\d+)?", v) or (k == "score" and v == "") for k, v in values)
    assert 'data-score="0.675"' in page and 'data-score=""' in page  # the mean of 0.9 and 0.45; unscored
