"""A verdict's optional parts read typed from its stored ``details`` (core/types/verdicts.py),
forgiving of verdicts stored by earlier releases."""

from __future__ import annotations

from ragtui.core.types.verdicts import JudgeReply, Rejudge, read_verdict


def test_the_rubric_parts_are_fields():
    details = {
        "scores": {"understanding": 4, "overall": "n/a"},
        "steps": ["asked about linking", 2],
        "overall": 4,
        "reason": "covers the steps",
        "comment": "old words",
        "fit": {"raw_score": 0.6, "kind": "isotonic"},
        "read": "sampled",
        "agreement": {"value": 0.5},
        "rejudge": {"model": "judge-2", "edited_prompt": True},
    }
    v = read_verdict("rubric", 0.8, details)
    assert v.criteria == {"understanding": 4, "overall": "n/a"}
    assert v.steps == ("asked about linking", "2")
    assert (v.overall, v.reason, v.comment, v.raw_score, v.read) == (
        4.0,
        "covers the steps",
        "old words",
        0.6,
        "sampled",
    )
    assert v.agreement_recorded
    assert v.rejudge == Rejudge(model="judge-2", edited_prompt=True)
    assert v.words == "covers the steps"  # no summary or conclusion: the reason


def test_missing_or_malformed_parts_read_as_none():
    v = read_verdict("faithfulness", None, {"scores": "not a dict", "fit": 3, "rejudge": "yes", "probes": []})
    assert (v.criteria, v.steps, v.overall, v.raw_score, v.read, v.rejudge, v.replies) == (
        {},
        (),
        None,
        None,
        "",
        None,
        (),
    )
    assert not v.agreement_recorded
    assert hash(v) == hash(read_verdict("faithfulness", None, {}))  # criteria stay out of the hash


def test_the_calls_of_a_verdict_keep_their_numbers():
    probes = [
        {"check": "claim", "question": "Is it said?", "reply": "yes"},
        "not a record",
        {"check": "context_answers", "question": "Do they hold it?", "sampled": "", "error": "timeout"},
    ]
    assert read_verdict("rubric", 0.5, {"probes": probes}).replies == (
        JudgeReply(1, "claim", "", "Is it said?", ("yes",)),
        JudgeReply(3, "context_answers", "timeout", "Do they hold it?", ()),
    )
    trace = [{"step": "statements", "replies": ["a", "b"]}, {"error": "bad json"}]
    assert read_verdict("faithfulness", 0.5, {"trace": trace}).replies == (
        JudgeReply(1, "statements", "", None, ("a", "b")),
        JudgeReply(2, "?", "bad json", None, ()),
    )
