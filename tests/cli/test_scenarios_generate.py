"""`ragtui scenarios generate` against the fake OpenAI server, with a scripted writer and judge:
verified drafts written as a scenario file that loads, every quote found in its source, kinds
and out-of-scope probes among them; items whose quote is invented, whose reference does not
follow, whose question stays in the wrong language or whose probe is answered by the knowledge
base are dropped by reason; a budget stops cleanly; a second run pays nothing twice; drafts run
only when asked, and their reference and quote never reach the bot or the customer."""

from __future__ import annotations

import json
import re
import shutil
import tomllib
from pathlib import Path

import pytest
import tomli_w

from ragtui.cli.main import main
from ragtui.core.config import paths
from ragtui.core.content.scenarios import load_scenarios
from ragtui.core.generate.drafts import SHORT
from ragtui.core.generate.quote_check import find_quote
from ragtui.core.knowledge.folder import read_folder
from ragtui.core.text.text_safety import strip_controls
from stand_ins.fake_openai import Reply, level_reply

from ..conftest import BOT, JUDGE, USER, endpoint_toml

REFERENCE_MARK = "As the help centre says:"  # only in references, so a leak is seen
INVENTED = "Refunds are always paid within one hour, in cash, at any of our kiosks."  # in no passage
PASSAGE = re.compile(r"### PASSAGE BEGIN ###\n(.*?)\n### PASSAGE END ###", re.S)
ANSWER = re.compile(r"### ANSWER BEGIN ###\n(.*?)\n### ANSWER END ###", re.S)


def answer_part_of(body: dict) -> str:
    """The part of the passage a grounded request asks a question for; of any other request
    (the judge's, a run's), the longest sentence of the passage it shows, if any."""
    shown = "\n".join(m["content"] for m in body["messages"] if m["role"] == "user")
    found = ANSWER.search(shown)
    if found is not None:
        return found.group(1)
    passage = PASSAGE.search(shown)
    return max(re.split(r"(?<=[.!?])\s", passage.group(1).strip()), key=len) if passage else ""


def schema_name(body: dict) -> str:
    return body.get("response_format", {}).get("json_schema", {}).get("name", "")


def last_user(body: dict) -> str:
    return [m["content"] for m in body["messages"] if m["role"] == "user"][-1]


CHECK = re.compile(r"### CUSTOMER ###\n(.*?)\n\n### ANSWER ###\n(.*?)\n\n### STATEMENT ###\nThe ANSWER (.*?)\.\n", re.S)


def yes_no(yes: bool) -> Reply:
    return level_reply({"yes": 0.95, "no": 0.05} if yes else {"yes": 0.03, "no": 0.97})


class ProvingJudge:
    """The run's expectation judge, as a fake that reads the check it is asked: a grounded
    expectation is met only by the reference the writer wrote for that question or a piece of it
    (every other answer — the reference with its number changed, another item's reference — fails it); a
    probe's "does not know" by an apology; a prohibition ("states that X") when X is said.
    ``right_fails`` / ``wrong_meets``: statements (substrings) it reads the other way."""

    def __init__(
        self, right_fails: tuple[str, ...] = (), wrong_meets: tuple[str, ...] = (), acts: dict[str, str] | None = None
    ) -> None:
        self.references: dict[str, str] = {}
        self.right_fails, self.wrong_meets = right_fails, wrong_meets
        self.acts = acts or {}  # a prohibition's act → the words that show an answer does it

    def wrote(self, question: str, reference: str) -> None:
        """As the generator reads the writer's fields: one line, no control characters."""
        self.references[" ".join(strip_controls(question).split())] = " ".join(strip_controls(reference).split())

    def answer(self, body: dict) -> Reply | None:
        """The reply to a level question, or None when ``body`` is not one."""
        if body.get("max_tokens") != 1:
            return None
        match = CHECK.search(last_user(body))
        if match is None:
            return None  # a run's other level questions (the rubric): not a proof
        question, answer, statement = match.groups()
        if statement in self.acts:
            return yes_no(self.acts[statement] in answer)
        if statement.startswith("says it does not know"):
            return yes_no(answer.startswith("I'm sorry"))
        if statement.startswith("states that "):
            return yes_no(statement.removeprefix("states that ").lower() in answer.lower())
        if statement.startswith("states as fact what this service offers for "):
            topic = statement.removeprefix("states as fact what this service offers for ").split(",")[0]
            return yes_no(topic.lower() in answer.lower())
        # the reference, or a sentence of it (the shortest right answer the generator may pick)
        reference = self.references.get(question)
        right = reference is not None and answer in reference
        if any(t in statement for t in self.right_fails) and right:
            return yes_no(False)
        if any(t in statement for t in self.wrong_meets):
            return yes_no(True)
        return yes_no(right)


SHORT_REFERENCE = re.compile(r"The correct answer:\n(.*?)\n\nWrite the shortest reply", re.S)


def short_answer(body: dict, shorten=None) -> Reply | None:
    """The writer's shortest right answer: the reference itself (so an expectation the reference
    meets, this fake's judge reads as met here too), or ``shorten(reference)``; None when
    ``body`` asks for something else."""
    if schema_name(body) != "short_answer":
        return None
    reference = SHORT_REFERENCE.search(last_user(body)).group(1)  # type: ignore[union-attr]
    return Reply(json.dumps({"answer": shorten(reference) if shorten else reference}))


FRESH_QUESTION = re.compile(r"A customer asked:\n(.*?)\n\nHelp-centre text", re.S)


def fresh_answer(body: dict, judge: ProvingJudge, answer_again=None) -> Reply | None:
    """The writer's answer to the question from the passage alone (the round trip): the
    reference it wrote for that question (the same answer, so no comparison is asked), or
    ``answer_again(question, reference)``; None when ``body`` asks for something else."""
    if schema_name(body) != "fresh_answer":
        return None
    question = FRESH_QUESTION.search(last_user(body)).group(1)  # type: ignore[union-attr]
    reference = judge.references.get(question, "")
    return Reply(json.dumps({"answer": answer_again(question, reference) if answer_again else reference}))


def same_answer(body: dict, same=None) -> Reply | None:
    """The judge's "do these two give the same answer?": yes, or ``same(first, second)``."""
    if schema_name(body) != "same_answer":
        return None
    found = re.search(r"Answer A:\n(.*?)\n\nAnswer B:\n(.*?)\n\nDo A and B", last_user(body), re.S)
    first, second = found.groups() if found else ("", "")
    return Reply(json.dumps({"same": "yes" if same is None or same(first, second) else "no"}))


def other_answer(body: dict, judge: ProvingJudge, shorten=None, answer_again=None, same=None) -> Reply | None:
    """The replies about other right answers: the writer's shortest one, its answer again from
    the passage, and the judge's comparison of that answer with the reference."""
    return short_answer(body, shorten) or fresh_answer(body, judge, answer_again) or same_answer(body, same)


ANSWERS_CHECK = re.compile(r"Answer:\n(.*?)\n\nDoes the answer reply", re.S)


def with_judge(respond, judge: ProvingJudge | None = None, shorten=None, answers=None, answer_again=None, same=None):
    """``respond`` (a responder or a fixed Reply) for the writer's requests, and the judge's
    checks answered by ``judge``: its level questions, and "does the reference answer it" (yes,
    or ``answers(the answer asked about)``); the writer's shortest reply is ``shorten(reference)``
    or the reference itself."""
    judge = judge or ProvingJudge()

    def answer(body: dict) -> Reply:
        level = judge.answer(body)
        if level is not None:
            return level
        if schema_name(body) == "answers":
            asked = ANSWERS_CHECK.search(last_user(body)).group(1)  # type: ignore[union-attr]
            return Reply(json.dumps({"answers": "yes" if answers is None or answers(asked) else "no"}))
        if (other := other_answer(body, judge, shorten, answer_again, same)) is not None:
            return other
        reply = respond(body) if callable(respond) else respond
        if schema_name(body) == "scenario":
            data = json.loads(reply.text)
            judge.wrote(data.get("question", ""), data.get("reference", ""))
        return reply

    return answer


def shaped(kind_text: str, sentence: str) -> str:
    """A question of the kind the writer was asked for: two questions, a story, a detail, the
    customer's situation."""
    asked = f"I have a question about this: {sentence[:40].lower()}?"
    if "two related questions" in kind_text:
        return f"{asked} And is there anything else I should know?"
    if "short story" in kind_text:
        return f"I tried to sort this out yesterday evening. {asked}"
    if "irrelevant detail" in kind_text:
        return f"My cat is asleep on the sofa next to me. {asked}"
    if "situation" in kind_text:
        return f"I'm on the yearly plan. {asked}"
    return asked


def writer(
    *,
    from_part: bool = True,
    follows: str = "yes",
    english: bool = True,
    probe_term: str = "gift cards",
    judge: ProvingJudge | None = None,
    prohibition: str = "",
    violation: str = "",
    shorten=None,
    answer_again=None,
    same=None,
):
    """A judge-role model that writes a test case from the passage it is shown: its first
    sentence as the quote (or an invented one), the reference restating it; and, as the judge,
    answers its checks (``ProvingJudge``)."""
    judge = judge or ProvingJudge()

    def respond(body: dict) -> Reply:
        name = schema_name(body)
        level = judge.answer(body)
        if level is not None:
            return level
        if name == "entailment":
            return Reply(json.dumps({"follows": follows}))
        if name == "answers":
            return Reply(json.dumps({"answers": "yes"}))
        if name == "violation":
            return Reply(json.dumps({"sentence": violation}))
        if (other := other_answer(body, judge, shorten, answer_again, same)) is not None:
            return other
        if name == "probe":
            # about the term it names: a covered one makes the probe one the knowledge base answers
            question = f"Can I buy {probe_term} for a friend?" if english else "ギフトカードは買えますか？"
            candidate = {
                "question": question,
                "key_terms": [probe_term],
                "invented_detail": f"{probe_term} are sold in the app",
            }
            return Reply(json.dumps({"candidates": [candidate]}))
        sentence = answer_part_of(body)
        asked_again = "not in English" in last_user(body)
        kind_text = next((m["content"] for m in body["messages"] if "Kind of question:" in m["content"]), "")
        question = shaped(kind_text, sentence) if english or asked_again else "これはどういう意味ですか？"
        if asked_again and not english:
            question = "これはどういう意味ですか？"
        judge.wrote(question, f"{REFERENCE_MARK} {sentence}")
        return Reply(
            json.dumps(
                {
                    "question": question,
                    "reference": f"{REFERENCE_MARK} {sentence}" if from_part else INVENTED,
                    "quote": sentence,
                    "expect": ["gives the answer the help centre gives"],
                    "expect_not": [prohibition] if prohibition else [],
                }
            )
        )

    return respond


@pytest.fixture
def help_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "help"
    folder.mkdir()
    (folder / "refunds.md").write_text(
        "# Refunds\n\nRefunds are paid within 5 business days to the original card. "
        "If you paid by bank transfer, the refund arrives as a bank transfer.\n\n"
        "## Yearly plans\n\nUnused months of a yearly plan cost $4 each to refund.\n",
        encoding="utf-8",
    )
    (folder / "linking.html").write_text(
        "<html><body><nav>Home</nav><main><h1>Linking</h1><p>Open Settings > Account > Linked services to link Google.</p></main></body></html>",
        encoding="utf-8",
    )
    (folder / "faq.csv").write_text(
        "question,answer\nCan I pause my plan?,Pausing is possible for up to 3 months.\n", encoding="utf-8"
    )
    return folder


@pytest.fixture
def config_path(server, tmp_path: Path) -> Path:
    path = tmp_path / "ragtui.toml"
    path.write_text(
        'language = "en"\nmax_turns = 1\ndatabase = "runs.db"\n' + endpoint_toml(server.base_url), encoding="utf-8"
    )
    return path


def generate(config_path: Path, folder: Path, out: Path, *extra: str) -> int:
    return main(["scenarios", "generate", str(folder), "--out", str(out), "--config", str(config_path), *extra])


def test_verified_drafts_are_written_and_load_as_scenarios(server, help_folder, config_path, tmp_path, capsys):
    server.set_default(JUDGE, writer())
    out = tmp_path / "mine.toml"
    assert generate(config_path, help_folder, out, "--n", "6") == 0
    printed = capsys.readouterr().out
    scenarios = load_scenarios(out, "en")
    assert scenarios and all(s.draft for s in scenarios)
    kinds = {s.kind for s in scenarios}
    assert len(kinds) >= 3 and "out_of_scope" in kinds
    passages = {p.content_hash: p for p in read_folder(help_folder).passages}
    for scenario in scenarios:
        if scenario.kind == "out_of_scope":
            assert scenario.source is None and any(e.polarity == "must_not" for e in scenario.expectations)
            continue
        assert scenario.source is not None
        assert find_quote(scenario.source.quote, passages[scenario.source.passage_hash].text) is not None
    linking = next(s for s in scenarios if s.source and s.source.file == "linking.html")
    assert any(e.form == "contains" and e.text == "Settings > Account > Linked services" for e in linking.expectations)
    assert "by kind:" in printed and "Wrote" in printed and "documents with no item" not in printed


def test_unverifiable_items_are_dropped_by_reason_and_nothing_is_written(
    server, help_folder, config_path, tmp_path, capsys
):
    out = tmp_path / "none.toml"
    server.set_default(JUDGE, writer(from_part=False, probe_term="Refunds"))
    assert generate(config_path, help_folder, out, "--n", "6") == 1
    printed = capsys.readouterr().out
    assert "dropped 5: the reference is not written from its passage" in printed
    assert "dropped 1: the out-of-scope question's terms are in the knowledge base" in printed
    assert not out.exists()
    server.set_default(JUDGE, writer(follows="no", probe_term="Refunds"))
    other = tmp_path / "other.toml"  # another file: the first run's cached replies are not reused
    assert generate(config_path, help_folder, other, "--n", "2", "--kinds", "factual") == 1
    assert "dropped 2: the reference does not follow from its quote" in capsys.readouterr().out


def test_a_question_in_the_wrong_language_is_asked_again_once_then_dropped(
    server, help_folder, config_path, tmp_path, capsys
):
    server.set_default(JUDGE, writer(english=False))
    assert generate(config_path, help_folder, tmp_path / "x.toml", "--n", "2", "--kinds", "factual") == 1
    assert "dropped 2: the question was in another language, twice" in capsys.readouterr().out
    retries = [b for b in server.chat_requests(JUDGE) if "not in English" in last_user(b)]
    assert len(retries) == 2  # once per item, never more


def test_a_budget_stops_cleanly_and_a_second_run_pays_nothing_twice(server, help_folder, config_path, tmp_path, capsys):
    server.set_default(JUDGE, writer())
    out = tmp_path / "budget.toml"
    assert generate(config_path, help_folder, out, "--n", "4", "--budget", "1") in (0, 1)
    printed = capsys.readouterr().out
    assert "stopped at the token budget" in printed and "not written: the token budget was spent" in printed
    calls_before = len(server.chat_requests(JUDGE))
    assert generate(config_path, help_folder, out, "--n", "4") == 0
    printed = capsys.readouterr().out
    assert "answered from the cache" in printed
    # the first run's calls were not made again: only the items it never reached were asked
    first_run_requests = [json.dumps(b["messages"]) for b in server.chat_requests(JUDGE)[:calls_before]]
    second_run_requests = [json.dumps(b["messages"]) for b in server.chat_requests(JUDGE)[calls_before:]]
    assert not set(first_run_requests) & set(second_run_requests)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--n", "0"], "--n must be between 1 and 500, got 0"),
        (["--budget", "0"], "--budget must be at least 1 token, got 0"),
        (["--kinds", "poems"], "--kinds: unknown kind 'poems'"),
    ],
)
def test_bad_options_are_one_line_and_no_file(server, help_folder, config_path, tmp_path, capsys, extra, message):
    out = tmp_path / "bad.toml"
    assert generate(config_path, help_folder, out, *extra) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and not out.exists()
    assert server.chat_requests(JUDGE) == []


def test_an_empty_folder_is_one_line_and_no_file(server, config_path, tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    assert generate(config_path, tmp_path / "empty", tmp_path / "e.toml") == 2
    assert "has no document ragtui can read" in capsys.readouterr().err and not (tmp_path / "e.toml").exists()


def test_drafts_run_only_when_asked_and_their_reference_and_quote_never_reach_the_bot_or_customer(
    server, help_folder, config_path, tmp_path, capsys
):
    server.set_default(JUDGE, writer())
    out = tmp_path / "drafts.toml"
    assert generate(config_path, help_folder, out, "--n", "3", "--kinds", "factual") == 0
    scenarios = load_scenarios(out, "en")
    capsys.readouterr()
    # the generated file and the same help centre, named on the command line: no config edit
    on_them = ["--scenarios", str(out), "--knowledge", str(help_folder)]
    assert main(["run", "--config", str(config_path), "-p", "calm", *on_them]) == 2
    assert "every scenario in" in capsys.readouterr().err
    assert main(["run", "--config", str(config_path), "--scenarios", str(tmp_path / "nope.toml")]) == 2
    assert "--scenarios" in capsys.readouterr().err
    run = ["run", "--config", str(config_path), "-p", "calm", "--include-drafts", "--max-turns", "2", *on_them]
    assert main(run) in (0, 1)  # two turns: the customer model writes the second message
    to_bot = json.dumps([b["messages"] for b in server.chat_requests(BOT)], ensure_ascii=False)
    to_customer = json.dumps([b["messages"] for b in server.chat_requests(USER)], ensure_ascii=False)
    assert server.chat_requests(BOT) and server.chat_requests(USER)
    for scenario in scenarios:
        assert scenario.source is not None and REFERENCE_MARK in (scenario.reference or "")
        assert json.dumps(scenario.question, ensure_ascii=False)[1:-1] in to_customer  # the customer opens with it
        assert json.dumps(scenario.source.quote, ensure_ascii=False)[1:-1] not in to_customer
    # the bot reads the passages it retrieves (the quote's sentence may be among them), never the reference
    assert REFERENCE_MARK not in to_bot and REFERENCE_MARK not in to_customer


def test_scenarios_check_flags_a_source_passage_that_changed_or_vanished(
    server, help_folder, config_path, tmp_path, capsys
):
    server.set_default(JUDGE, writer())
    out = tmp_path / "drafts.toml"
    assert generate(config_path, help_folder, out, "--n", "3", "--kinds", "factual") == 0
    config_path.write_text(
        config_path.read_text(encoding="utf-8").replace(
            "max_turns = 1\n", f'max_turns = 1\nknowledge = "{help_folder}"\n'
        ),
        encoding="utf-8",
    )
    capsys.readouterr()
    assert main(["scenarios", "--check", str(out), "--config", str(config_path)]) == 0
    (help_folder / "linking.html").unlink()
    refunds = help_folder / "refunds.md"
    refunds.write_text(
        refunds.read_text(encoding="utf-8").replace("5 business days", "7 business days"), encoding="utf-8"
    )
    assert main(["scenarios", "--check", str(out), "--config", str(config_path)]) == 2
    err = capsys.readouterr().err
    assert "its source file linking.html is no longer in" in err
    assert "its source passage in refunds.md has changed since it was generated" in err


def test_the_kept_quote_is_the_part_the_question_was_written_for_in_the_passage_s_own_words(
    server, help_folder, config_path, tmp_path
):
    shown: list[str] = []

    def respond(body: dict) -> Reply:
        if schema_name(body) == "entailment":
            return Reply(json.dumps({"follows": "yes"}))
        sentence = answer_part_of(body)
        shown.append(sentence)
        # a small model's habits: a quote of its own ("..."), the reference copied from the part
        return Reply(
            json.dumps(
                {
                    "question": f"What does {sentence.split()[0].lower()} mean here?",
                    "reference": sentence.upper(),
                    "quote": "...",
                    "expect": [],
                    "expect_not": [],
                }
            )
        )

    server.set_default(JUDGE, with_judge(respond))
    out = tmp_path / "extractive.toml"
    assert generate(config_path, help_folder, out, "--n", "1", "--kinds", "factual") == 0
    (scenario,) = load_scenarios(out, "en")
    passages = {p.content_hash: p.text for p in read_folder(help_folder).passages}
    assert scenario.source is not None and scenario.source.quote == shown[0]
    assert scenario.source.quote in passages[scenario.source.passage_hash]  # the source's own words and case


def test_the_first_probe_candidate_outside_the_knowledge_base_is_kept(server, help_folder, config_path, tmp_path):
    covered = {
        "question": "How long do refunds take?",
        "key_terms": ["refunds"],
        "invented_detail": "refunds are instant",
    }
    outside = {
        "question": "Can I pay with gift cards?",
        "key_terms": ["gift cards"],
        "invented_detail": "gift cards work",
    }
    server.set_default(JUDGE, with_judge(Reply(json.dumps({"candidates": [covered, outside]}))))
    out = tmp_path / "probe.toml"
    assert generate(config_path, help_folder, out, "--n", "1", "--kinds", "out_of_scope") == 0
    (probe,) = load_scenarios(out, "en")
    assert probe.question == "Can I pay with gift cards?" and probe.kind == "out_of_scope"
    assert [e.text for e in probe.expectations if e.polarity == "must_not"] == [
        "states as fact what this service offers for gift cards, or how it works"
    ]


def test_each_probe_is_about_the_next_topic_the_knowledge_base_lacks(server, help_folder, config_path, tmp_path):
    """A small writer names terms the help centre has ("refund"); a question on the topic code
    found absent is kept on that topic's terms, and the next probe is about the next topic."""

    def respond(body: dict) -> Reply:
        topic = re.search(r"says nothing about (.+?);", last_user(body))
        assert topic is not None
        candidate = {
            "question": f"Do you offer {topic.group(1)}?",
            "key_terms": ["refund"],
            "invented_detail": "The bot might say, 'Yes, with 50% off.'",
        }
        return Reply(json.dumps({"candidates": [candidate]}))

    server.set_default(JUDGE, with_judge(respond))
    out = tmp_path / "probes.toml"
    assert generate(config_path, help_folder, out, "--n", "2", "--kinds", "out_of_scope") == 0
    assert [s.question for s in load_scenarios(out, "en")] == [
        "Do you offer gift cards?",
        "Do you offer student discounts?",
    ]


def test_a_probe_off_its_topic_is_checked_on_its_own_terms_and_a_quoted_reply_is_no_claim(
    server, help_folder, config_path, tmp_path
):
    free = {
        "question": "Can I pause my plan from the smartwatch?",
        "key_terms": ["Apple Watch"],
        "invented_detail": "The bot might say, 'Yes, from the watch face.'",
    }
    server.set_default(JUDGE, with_judge(Reply(json.dumps({"candidates": [free]}))))
    out = tmp_path / "free.toml"
    assert generate(config_path, help_folder, out, "--n", "1", "--kinds", "out_of_scope") == 0
    (probe,) = load_scenarios(out, "en")
    assert probe.question == free["question"]
    assert [e.polarity for e in probe.expectations] == ["must"]  # a quoted reply is not a claim to forbid


def with_next_sentences(folder: Path) -> Path:
    """The help folder with a second sentence in every passage: something for a follow-up to ask."""
    (folder / "refunds.md").write_text(
        "# Refunds\n\nRefunds are paid within 5 business days to the original card. "
        "A refund shows on the statement as TSUMUGI REFUND.\n\n"
        "## Yearly plans\n\nUnused months of a yearly plan cost $4 each to refund.\n",
        encoding="utf-8",
    )
    (folder / "linking.html").write_text(
        "<html><body><main><h1>Linking</h1><p>Open Settings > Account > Linked services to link Google. "
        "A linked account is unlinked on the same screen.</p></main></body></html>",
        encoding="utf-8",
    )
    (folder / "faq.csv").write_text(
        "question,answer\nCan I pause my plan?,Pausing is possible for up to 3 months. A paused plan resumes by itself.\n",
        encoding="utf-8",
    )
    return folder


def follow_up_writer(
    *, quote_ok: bool = True, repeats_first: bool = False, asked: str = "And what happens after that?"
):
    """The writer above, and for ``--follow-ups`` a next question quoting the longest sentence of
    the text shown that the first answer did not give (or an invented one), its reference marked like every
    reference — or, with ``repeats_first``, the first answer given again (what a small writer does)."""
    first = writer()

    def respond(body: dict) -> Reply:
        if schema_name(body) != "follow_up":
            return first(body)
        match = PASSAGE.search(last_user(body))
        answered = last_user(body).split("The support agent answered:\n", 1)[-1].split("\n\n", 1)[0]
        sentences = re.split(r"(?<=[.!?])\s+", (match.group(1) if match else "").strip())
        fresh = [t for t in sentences if t.strip() and t not in answered]
        sentence = max(fresh, key=len) if fresh else sentences[-1]  # the longest: a FAQ row opens with its question
        quote = sentence if quote_ok else "Refunds arrive by carrier pigeon."
        follow = {
            "question": asked,
            "reference": answered if repeats_first else f"{REFERENCE_MARK} {sentence}",
            "quote": quote,
        }
        return Reply(json.dumps(follow))

    return respond


def test_follow_ups_are_turn_two_checked_like_first_questions_and_never_reach_the_bot_as_references(
    server, help_folder, config_path, tmp_path, capsys
):
    with_next_sentences(help_folder)
    server.set_default(JUDGE, follow_up_writer())
    out = tmp_path / "follow.toml"
    assert generate(config_path, help_folder, out, "--n", "2", "--kinds", "factual", "--follow-ups") == 0
    assert "follow-ups: 2 written" in capsys.readouterr().out
    scenarios = load_scenarios(out, "en")
    passages = {p.content_hash: p.text for p in read_folder(help_folder).passages}
    for scenario in scenarios:
        follow = scenario.follow_up
        assert follow is not None and follow.question == "And what happens after that?"
        assert follow.quote in passages[follow.passage_hash]  # from the passage or the next section, as written
    on_them = ["--scenarios", str(out), "--knowledge", str(help_folder), "--include-drafts"]
    assert main(["run", "--config", str(config_path), "-p", "calm", "--max-turns", "2", *on_them]) in (0, 1)
    to_bot = json.dumps([b["messages"] for b in server.chat_requests(BOT)], ensure_ascii=False)
    assert "And what happens after that?" in to_bot  # the customer's turn 2, as planned
    assert REFERENCE_MARK not in to_bot
    assert all(
        "And what happens after that?" not in json.dumps(b) for b in server.chat_requests(USER)
    )  # not the persona's


def test_a_follow_up_that_fails_its_checks_is_left_out_and_the_item_kept(
    server, help_folder, config_path, tmp_path, capsys
):
    server.set_default(JUDGE, follow_up_writer(quote_ok=False))
    out = tmp_path / "follow.toml"
    assert generate(config_path, help_folder, out, "--n", "1", "--kinds", "factual", "--follow-ups") == 0
    assert "follow-ups: 0 written; 1 not: its quote is not in the passage" in capsys.readouterr().out
    (scenario,) = load_scenarios(out, "en")
    assert scenario.follow_up is None


def test_a_follow_up_that_repeats_the_first_answer_is_left_out(server, help_folder, config_path, tmp_path, capsys):
    server.set_default(JUDGE, follow_up_writer(repeats_first=True))
    out = tmp_path / "follow.toml"
    assert generate(config_path, help_folder, out, "--n", "1", "--kinds", "factual", "--follow-ups") == 0
    assert "follow-ups: 0 written; 1 not: the follow-up's reference repeats the first answer" in capsys.readouterr().out
    (scenario,) = load_scenarios(out, "en")
    assert scenario.follow_up is None and scenario.reference  # the item itself is kept


def test_a_follow_up_whose_reference_lacks_what_it_asks_for_is_left_out(
    server, help_folder, config_path, tmp_path, capsys
):
    """Checked like a first question: "how long" wants a duration its reference never gives."""
    server.set_default(JUDGE, follow_up_writer(asked="And how long does that take?"))
    out = tmp_path / "follow.toml"
    assert generate(config_path, help_folder, out, "--n", "1", "--kinds", "factual", "--follow-ups") == 0
    printed = " ".join(capsys.readouterr().out.split())
    assert "1 not: the question asks how long; the reference gives no duration" in printed
    (scenario,) = load_scenarios(out, "en")
    assert scenario.follow_up is None and scenario.reference


def test_scenarios_check_flags_a_follow_up_whose_passage_changed(server, help_folder, config_path, tmp_path, capsys):
    with_next_sentences(help_folder)
    from ragtui.core.generate.source_drift import source_problems

    server.set_default(JUDGE, follow_up_writer())
    out = tmp_path / "follow.toml"
    assert generate(config_path, help_folder, out, "--n", "1", "--kinds", "factual", "--follow-ups") == 0
    (scenario,) = load_scenarios(out, "en")
    assert scenario.follow_up is not None
    kept = [p for p in read_folder(help_folder).passages if p.content_hash != scenario.follow_up.passage_hash]
    problems = source_problems([scenario], kept, "help")
    assert any("its follow-up's reference comes from has changed or gone" in line for line in problems)


def test_a_reference_that_restates_its_question_is_dropped_and_terms_become_exact_checks(
    server, help_folder, config_path, tmp_path, capsys
):
    """What a small writer does in Japanese, in English: the question as its own reference; a bare
    term of the quote as a judged expectation; an expect_not that the passage itself states."""
    sentence = "Refunds are paid within 5 business days to the original card."

    def respond(body: dict) -> Reply:
        if schema_name(body) == "entailment":
            return Reply(json.dumps({"follows": "yes"}))  # a lenient judge: code must catch these
        if "Linked services" in last_user(body):
            return Reply(json.dumps({"question": "How do I link Google?", "reference": "How do I link Google?",
                                     "quote": "Open Settings > Account > Linked services to link Google.",
                                     "expect": [], "expect_not": []}))  # fmt: skip
        if "Pausing" in last_user(body):  # another item's reference: a wrong answer the expectations must fail
            pausing = "Pausing is possible for up to 3 months."
            return Reply(json.dumps({"question": "Can I pause my plan?", "reference": pausing, "quote": pausing,
                                     "expect": [], "expect_not": []}))  # fmt: skip
        return Reply(json.dumps({"question": "When is my refund paid?", "reference": sentence, "quote": sentence,
                                 "expect": ["original card", "says the refund takes 5 business days"],
                                 "expect_not": ["original card"]}))  # fmt: skip

    server.set_default(JUDGE, with_judge(respond))
    out = tmp_path / "checked.toml"
    assert generate(config_path, help_folder, out, "--n", "3", "--kinds", "factual") == 0
    assert "dropped 1: the reference restates the question" in capsys.readouterr().out
    scenarios = load_scenarios(out, "en")
    assert all(s.question != s.reference for s in scenarios)
    refund = next(s for s in scenarios if s.source and s.source.file == "refunds.md")
    forms = {(e.form, e.polarity, e.text) for e in refund.expectations}
    assert ("contains", "must", "original card") in forms  # a term of the quote: checked in code
    judged = [e for e in refund.expectations if e.form != "contains"]
    assert [e.text for e in judged if e.polarity == "must"] == ["says the refund takes 5 business days"]
    assert not [e for e in refund.expectations if e.polarity == "must_not"]  # it forbade what the passage says


def test_the_last_progress_line_counts_what_the_summary_does(server, help_folder, config_path, tmp_path, capsys):
    """The progress line said "14 kept · 16 dropped" and the summary "Kept 10 of 30": near-duplicates
    were dropped after the last progress line. They are dropped as they come, one tally for both."""
    judge = ProvingJudge()
    same = writer(judge=judge)

    def one_question(body: dict) -> Reply:
        reply = same(body)
        if schema_name(body) != "scenario":
            return reply
        data = json.loads(reply.text)
        # every grounded item asks nearly the same (a word of its own part, so it asks of it)
        data["question"] = f"How do refunds work for my plan, please, {answer_part_of(body).split()[0].lower()}?"
        judge.wrote(data["question"], data["reference"])
        return Reply(json.dumps(data))

    server.set_default(JUDGE, one_question)
    assert generate(config_path, help_folder, tmp_path / "dups.toml", "--n", "6") == 0
    captured = capsys.readouterr()
    progress = [line for line in captured.err.splitlines() if line.startswith("generating ")]
    assert progress and progress[-1].startswith("generating 6/6 ")
    written = len(load_scenarios(tmp_path / "dups.toml", "en"))
    assert f" {written} kept · {6 - written} dropped (" in progress[-1], (written, progress[-1])
    summary = next(line for line in captured.out.splitlines() if line.startswith("Generated "))
    tally = summary.split(": ", 1)[1]
    assert f"· {tally} · " in progress[-1], (progress[-1], summary)  # kept, dropped by reason, expectations
    by_reason = re.findall(r"^  dropped (\d+): (.+)$", captured.out, re.M)
    assert sum(int(n) for n, _ in by_reason) == 6 - written >= 2
    for count, reason in by_reason:  # each reason of the summary, with its count, on the progress line
        assert f"{count} {SHORT[reason]}" in progress[-1], (reason, progress[-1])
    assert "a near-duplicate of a kept question" in captured.out


def test_a_prompt_folder_from_before_the_proofs_still_generates_and_says_what_it_borrowed(
    server, help_folder, config_path, tmp_path, capsys
):
    """A team's prompts folder copied before the reference's second check and the proofs: the
    run goes on with the bundled wording for the keys the file lacks, and says which."""
    prompts = tmp_path / "prompts"
    shutil.copytree(paths.bundled_dir("prompts"), prompts)
    file = prompts / "en" / "scenario_generate.toml"
    data = tomllib.loads(file.read_text(encoding="utf-8"))
    for key in ("answers", "answers_system", "rewrite_expect", "rewrite_expect_not"):
        del data[key]
    file.write_text(tomli_w.dumps(data), encoding="utf-8")
    config_path.write_text(f'prompts = "{prompts}"\n' + config_path.read_text(encoding="utf-8"), encoding="utf-8")
    server.set_default(JUDGE, writer())
    assert generate(config_path, help_folder, tmp_path / "old.toml", "--n", "3", "--kinds", "factual") == 0
    printed = " ".join(capsys.readouterr().out.split())
    assert f"{file} lacks 4 key(s) added since it was copied" in printed
    assert "(answers, answers_system, rewrite_expect, rewrite_expect_not)" in printed and "bundled wording" in printed


def test_a_message_that_quotes_its_own_answer_is_dropped(server, help_folder, config_path, tmp_path, capsys):
    """ "I saw a sign that said '…'" with the reference inside the quotes: any bot that reads it back
    passes. Dropped in code, counted; the judge is never asked whether it answers."""
    sentence = "Refunds are paid within 5 business days to the original card."
    asked: list[str] = []

    def respond(body: dict) -> Reply:
        if "Refunds are paid" not in last_user(body):
            return Reply(json.dumps({"question": "How do I link Google?", "reference": "How do I link Google?",
                                     "quote": "", "expect": [], "expect_not": []}))  # fmt: skip
        asked.append(schema_name(body) or "")
        return Reply(json.dumps({"question": f"When is my refund paid? I saw a note that said '{sentence}'",
                                 "reference": sentence, "quote": sentence, "expect": [], "expect_not": []}))  # fmt: skip

    server.set_default(JUDGE, with_judge(respond))
    out = tmp_path / "quoted.toml"
    assert generate(config_path, help_folder, out, "--n", "4", "--kinds", "factual") == 1  # nothing kept
    printed = " ".join(capsys.readouterr().out.split())
    assert "dropped 1: the customer's message quotes its own answer" in printed
    assert "answer quoted in question" in printed  # the short label of the summary line
    assert asked and "entailment" not in asked and not out.exists()
