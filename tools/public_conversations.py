"""Convert the public conversation sets in sample_data/conversations/public/ from their published
shape to the JSONL that `ragtui import` reads: one conversation a line, OpenAI-style messages.

Plain data conversion, deterministic: the words are copied as published (no case, spacing or
punctuation changed, no message dropped except the annotations around them); only the speaker
labels are mapped, and the conversations are written in the order they are asked for.

    python tools/public_conversations.py taskmaster data_00.json --first 31 --out coffee.jsonl
    python tools/public_conversations.py taskmaster data_00.json --ids dlg-… dlg-… --out some.jsonl
    python tools/public_conversations.py abcd abcd_sample.json --out abcd.jsonl

- ``taskmaster``: Taskmaster-4 (google-research-datasets/Taskmaster, TM-4-2024/data/data_NN.json):
  a JSON list of ``{"conversation_id", "utterances": [{"speaker": "user"|"assistant", "text"}]}``.
  ``user`` and ``assistant`` are kept: ragtui reads them as the customer and the bot.
- ``abcd``: ABCD (asappresearch/abcd, data/abcd_sample.json): a JSON list of ``{"convo_id",
  "original": [[speaker, text], …]}``. ``customer`` and ``agent`` are kept (a human agent for
  ragtui); ``action`` — the agent's tool recording what it did ("Account has been pulled up for
  …") — becomes ``system``, a note ragtui keeps and never judges.

Without ``--ids`` every conversation of the file is written (or the first N with ``--first N``),
in the file's order.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path

ABCD_ROLES = {"customer": "customer", "agent": "agent", "action": "system"}
TASKMASTER_ROLES = {"user": "user", "assistant": "assistant"}


def taskmaster(data: list[dict]) -> Iterator[tuple[str, list[dict[str, str]]]]:
    for dialog in data:
        turns = sorted(dialog["utterances"], key=lambda u: u["index"])
        yield dialog["conversation_id"], [{"role": TASKMASTER_ROLES[u["speaker"]], "content": u["text"]} for u in turns]


def abcd(data: list[dict]) -> Iterator[tuple[str, list[dict[str, str]]]]:
    for convo in data:
        messages = [{"role": ABCD_ROLES[speaker], "content": text} for speaker, text in convo["original"]]
        yield f"abcd-{convo['convo_id']}", messages


READERS = {"taskmaster": taskmaster, "abcd": abcd}


def convert(kind: str, source: Path, ids: list[str] | None, first: int | None = None) -> list[str]:
    data = json.loads(source.read_text(encoding="utf-8"))
    found = dict(READERS[kind](data))
    wanted = ids if ids else list(found)[:first]
    missing = [i for i in wanted if i not in found]
    if missing:
        raise SystemExit(f"{source}: no conversation {missing[0]!r}")
    return [json.dumps({"id": i, "messages": found[i]}, ensure_ascii=False) for i in wanted]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("kind", choices=sorted(READERS))
    parser.add_argument("source", type=Path)
    parser.add_argument("--out", type=Path, required=True)
    chosen = parser.add_mutually_exclusive_group()
    chosen.add_argument("--ids", nargs="+", help="the conversations to keep, in this order (default: all)")
    chosen.add_argument("--first", type=int, help="keep the file's first N conversations")
    args = parser.parse_args(argv)
    lines = convert(args.kind, args.source, args.ids, args.first)
    args.out.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    print(f"wrote {len(lines)} conversation(s) to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
