"""Generating again onto a drafts file a person has reviewed: the file is merged, never replaced.

Every entry already in the file stays exactly as it is — accepted, edited, still a draft, or
hand-written — and a draft the reviewer rejected (its id is kept in the file's ``rejected`` list
by the review) is not added back. Only drafts new to the file are appended: a new id, not
rejected, and not a near-duplicate of a question the file already holds. A file that is not a
drafts file (a help article, a hand-written scenario file with no generated entry, anything that
is not TOML) is refused: only ``--force`` replaces it.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tomli_w

from ..types.errors import ConfigError
from .drafts import Draft
from .similarity import DUPLICATE_AT, alike
from .toml_out import HEADER, scenario_table

REJECTED = "rejected"  # the top-level list of the ids a reviewer rejected


@dataclass(frozen=True)
class Merge:
    """What merging drafts into an existing file did, for the one line the command prints."""

    text: str  # the file's new content
    added: int  # new drafts appended
    kept: int  # entries already in the file, left as they were
    accepted: int  # of those, accepted by a reviewer (or hand-written)
    already: int  # new drafts left out: their id or their question is in the file already
    rejected: int  # new drafts left out: a reviewer rejected them before

    def line(self, path: Path) -> str:
        left_out = []
        if self.already:
            left_out.append(f"{self.already} already there")
        if self.rejected:
            left_out.append(f"{self.rejected} rejected before")
        out = f"; left out {', '.join(left_out)}" if left_out else ""
        return (
            f"Merged into {path}: {self.added} new draft(s) added; the {self.kept} scenario(s) already there "
            f"kept as reviewed ({self.accepted} accepted){out}"
        )


def read_drafts_file(path: Path, language: str) -> dict[str, Any]:
    """The parsed tables of the drafts file at ``path``, to merge new drafts into; a ConfigError
    naming the file when it is not one ``scenarios generate`` can merge into."""
    force = "pass --force to replace it, or choose another --out; nothing was written"
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ConfigError(f"--out {path} exists and is not a drafts file (not UTF-8 text)", force) from None
    except OSError as exc:
        raise ConfigError(f"--out {path} cannot be read: {exc.strerror or exc}", "nothing was written") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        raise ConfigError(f"--out {path} exists and is not a drafts file (not TOML)", force) from None
    entries = data.get("scenario")
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise ConfigError(f"--out {path} exists and is not a scenario file", force)
    if not (text.startswith(HEADER[:40]) or REJECTED in data or any(_generated(e) for e in entries)):
        raise ConfigError(f"--out {path} exists and holds no generated scenario (hand-written ones?)", force)
    theirs = data.get("language")
    if isinstance(theirs, str) and theirs != language:
        raise ConfigError(
            f"--out {path} holds {theirs} scenarios; these drafts are in {language}",
            f"choose another --out for the {language} drafts; nothing was written",
        )
    return data


def merge_drafts(data: dict[str, Any], drafts: list[Draft], language: str) -> Merge:
    """``drafts`` appended to the file's tables ``data`` where they are new to it (see the module)."""
    entries: list[dict[str, Any]] = list(data.get("scenario") or [])
    ids = {str(e.get("id")) for e in entries}
    rejected = {str(i) for i in data.get(REJECTED) or []}
    questions = [str(e.get("question") or "") for e in entries]
    added: list[dict[str, Any]] = []
    already = again = 0
    for draft in drafts:
        if draft.id in rejected:
            again += 1
        elif draft.id in ids or any(alike(draft.question, q) >= DUPLICATE_AT for q in questions):
            already += 1
        else:
            added.append(scenario_table(draft))
            ids.add(draft.id)
            questions.append(draft.question)
    merged = {**data, "language": data.get("language") or language, "scenario": entries + added}
    accepted = sum(1 for e in entries if e.get("status", "accepted") == "accepted")
    return Merge(HEADER + tomli_w.dumps(merged), len(added), len(entries), accepted, already, again)


def _generated(entry: dict[str, Any]) -> bool:
    tags = entry.get("tags")
    return "source" in entry or "kind" in entry or (isinstance(tags, list) and "generated" in tags)
