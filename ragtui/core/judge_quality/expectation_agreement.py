"""How far the expectation judge agrees with people: a labelled file of answers and expectations.

Each item is one customer question, the passage the bot had, one answer, one expectation and its
polarity, labelled 1 when the answer meets it (``must``) or does the forbidden act (``must_not``).
The judge's ``p_yes`` is read in the same sense, so one threshold (``MET_AT``) decides both.

An item is measured exactly as a run reads the same sentence, by the same function
(``expectation_from_text``, the scenario files' ``expect`` / ``expect_not`` items): a ``must`` item
written as a prohibition ("does not promise a refund", 「…しないこと」) is a prohibition of its act
("promises a refund"), asked about the act, and its label is read the same way round (1 = the answer
does the act). Before, calibrate, the judge card and the benches read such an item as a plain
``must`` — a path no run takes (docs/expectations-agreement.md). The
figures — accuracy, Cohen's κ and AUC — are given per language and per half (``choose`` to tune
prompts on, ``report`` to report), with per-kind counts so a reader sees *which* answers the judge
gets wrong (paraphrases, partial answers, kept prohibitions…), not only how many.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..config.expectation_items import expectation_from_text
from ..metrics.dialogue.expectation_judge import MET_AT, AnswerToCheck
from ..types.errors import ConfigError
from ..types.expectations import Expectation, ExpectationCheck
from ..types.passages import Passage
from . import agreement
from .labelled import InputProblem, alternate_halves, read_records

REQUIRED = ("question", "response", "expectation", "label")
POLARITIES = ("must", "must_not")
SPLITS = ("choose", "report")
LANGUAGES = ("en", "ja")


@dataclass(frozen=True)
class ExpectationItem:
    id: str
    line: int
    language: str
    split: str  # "choose" | "report" | "" (the file gives none)
    kind: str
    question: str
    context: str
    response: str
    expectation: str
    polarity: str
    label: int

    def run_expectation(self) -> Expectation:
        """The expectation as a run reads the item's sentence and polarity (``expectation_from_text``,
        as a scenario's ``expect`` / ``expect_not`` item), under the item's id."""
        return replace(expectation_from_text(self.expectation, "judged", self.polarity), id=self.id)  # type: ignore[arg-type]

    @property
    def run_label(self) -> int:
        """The label in the run's sense: 1 = the answer meets the expectation (``must``) or does
        its act (``must_not``). A ``must`` item a run reads as a prohibition flips: "does not
        promise a refund" kept (label 1) is "promises a refund" not done (0)."""
        return self.label if self.run_expectation().polarity == self.polarity else 1 - self.label

    def to_check(self) -> tuple[Expectation, AnswerToCheck]:
        """What a run's judge is asked: the expectation as a run reads it, and the answer."""
        passages = [Passage(f"{self.id}#1", "", self.context)] if self.context.strip() else []
        return self.run_expectation(), AnswerToCheck(1, self.question, self.response, passages)


@dataclass
class ExpectationFile:
    path: Path
    items: list[ExpectationItem] = field(default_factory=list)
    problems: list[InputProblem] = field(default_factory=list)


def _text(record: dict, key: str) -> str:
    value = record.get(key, "")
    return value if isinstance(value, str) else ""


def _item(number: int, record: object, default_language: str) -> ExpectationItem | str:
    """The item of one record, or what is wrong with it (naming the key)."""
    if not isinstance(record, dict):
        return getattr(record, "message", "not a JSON object")
    for key in REQUIRED:
        if key not in record:
            return f"missing key {key!r}"
    for key in ("question", "response", "expectation", "context"):
        if key in record and not isinstance(record[key], str):
            return f"{key!r} must be a string"
    if not record["expectation"].strip():
        return "'expectation' is empty"
    if not record["response"].strip():
        return "'response' is empty"
    label = record["label"]
    if isinstance(label, bool) or label not in (0, 1):
        return f"'label' must be 0 or 1, got {label!r}"
    polarity = record.get("polarity", "must")
    if polarity not in POLARITIES:
        return f"'polarity' must be must or must_not, got {polarity!r}"
    language = record.get("language", default_language)
    if language not in LANGUAGES:
        return f"'language' must be en or ja, got {language!r}"
    split = record.get("split", "")
    if split not in (*SPLITS, ""):
        return f"'split' must be choose or report, got {split!r}"
    try:  # what a run would refuse in a scenario file (a paragraph, not a sentence) is refused here
        expectation_from_text(record["expectation"], "judged", polarity, "'expectation'")
    except ConfigError as exc:
        return exc.message
    return ExpectationItem(
        id=str(record.get("id") or f"line-{number}"),
        line=number,
        language=language,
        split=split,
        kind=_text(record, "kind") or "-",
        question=record["question"],
        context=_text(record, "context"),
        response=record["response"],
        expectation=record["expectation"],
        polarity=polarity,
        label=int(label),
    )


def load_expectation_items(path: Path, default_language: str = "en") -> ExpectationFile:
    """Every valid item of a JSONL / JSON-array file, and every bad line with its number."""
    found = ExpectationFile(path)
    seen: set[str] = set()
    for number, record in read_records(path):
        item = _item(number, record, default_language)
        if isinstance(item, str):
            found.problems.append(InputProblem(number, item))
        elif item.id in seen:
            found.problems.append(InputProblem(number, f"id {item.id!r} appears twice"))
        else:
            seen.add(item.id)
            found.items.append(item)
    return found


def select(items: list[ExpectationItem], split: str) -> list[ExpectationItem]:
    """``choose`` / ``report``: the items of that half. A file without ``split`` fields is
    halved by alternating items within each language, as the other labelled sets are."""
    if split != "all" and any(i.split for i in items):
        return [i for i in items if i.split == split]
    return alternate_halves(items, split)


@dataclass(frozen=True)
class Scored:
    item: ExpectationItem
    check: ExpectationCheck

    @property
    def label(self) -> int:
        """The item's label in the sense its check was asked (``run_label``)."""
        return self.item.run_label

    @property
    def predicted(self) -> int | None:
        p = self.check.p_yes
        return None if p is None else int(p >= MET_AT)


@dataclass(frozen=True)
class Figures:
    n: int
    scored: int
    accuracy: float | None
    kappa: float | None
    auc: float | None
    mean_p_positive: float | None  # mean P(yes) of the items labelled 1
    mean_p_negative: float | None


def figures(rows: Iterable[Scored]) -> Figures:
    rows = list(rows)
    scored = [r for r in rows if r.predicted is not None]
    predicted = [int(r.predicted or 0) for r in scored]
    labels = [r.label for r in scored]
    stats = agreement.binary_agreement(predicted, labels)
    p = [r.check.p_yes for r in scored]
    pos = [float(x) for x, y in zip(p, labels, strict=True) if y == 1 and x is not None]
    neg = [float(x) for x, y in zip(p, labels, strict=True) if y == 0 and x is not None]
    return Figures(
        n=len(rows),
        scored=len(scored),
        accuracy=stats.accuracy,
        kappa=stats.kappa,
        auc=agreement.auc(p, [y == 1 for y in labels]),
        mean_p_positive=sum(pos) / len(pos) if pos else None,
        mean_p_negative=sum(neg) / len(neg) if neg else None,
    )


@dataclass(frozen=True)
class KindCounts:
    kind: str
    n: int
    right: int  # judged as labelled
    unscored: int
    mean_p: float | None


def by_group(rows: list[Scored]) -> dict[tuple[str, str], Figures]:
    """(language, half) → figures; half "all" too, and language "all" for each half."""
    groups: dict[tuple[str, str], list[Scored]] = {}
    for r in rows:
        half = r.item.split or "-"
        for key in ((r.item.language, half), (r.item.language, "all"), ("all", half), ("all", "all")):
            groups.setdefault(key, []).append(r)
    return {key: figures(group) for key, group in sorted(groups.items())}


def by_kind(rows: list[Scored]) -> list[KindCounts]:
    kinds: dict[str, list[Scored]] = {}
    for r in rows:
        kinds.setdefault(r.item.kind, []).append(r)
    out = []
    for kind, group in kinds.items():
        ps = [r.check.p_yes for r in group if r.check.p_yes is not None]
        out.append(
            KindCounts(
                kind,
                len(group),
                sum(1 for r in group if r.predicted == r.label),
                sum(1 for r in group if r.predicted is None),
                sum(ps) / len(ps) if ps else None,
            )
        )
    return out
