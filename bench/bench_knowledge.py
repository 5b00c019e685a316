"""Reading a help centre and generating scenarios from it, measured.

1. **Reading.** ``examples/help-centre/en`` (an HTML page with its site's chrome, a text PDF, a CSV
   FAQ, a Markdown article) copied ``--copies`` times into a temporary folder, read as the
   built-in bot reads it (``read_folder``: every loader, decoding, cutting at headings, hashes).
   Baseline in the same run: as many Markdown files (the help centre's Markdown article, copied),
   the format ragtui read before HTML, PDF and FAQ exports — so the ratio is what the other
   formats cost.
2. **Generating.** ``--items`` grounded items through the whole generator (plan, writer call,
   quote check, the judge's yes/no, facts, near-duplicates) against the fake OpenAI-compatible
   server on 127.0.0.1, whose writer answers at once with the passage's first sentence. Baseline in
   the same run: the same number of chat completions to the same server, nothing checked — so the
   ratio is what ragtui's checks add to the calls a real model would answer.

Nothing here asserts: it prints figures. Usage: ``python bench/bench_knowledge.py [--copies 40] [--items 60]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import shutil
import tempfile
import time
from pathlib import Path

from ragtui.core.content.prompts import load_prompt
from ragtui.core.generate.drafts import GenerationReport
from ragtui.core.generate.pipeline import Generator
from ragtui.core.generate.plan import plan
from ragtui.core.generate.reply_cache import ReplyCache
from ragtui.core.knowledge.folder import read_folder
from ragtui.core.models.endpoints import Endpoint
from ragtui.core.models.llm import ClientPool
from stand_ins.fake_openai import FakeOpenAIServer, Reply

ROOT = Path(__file__).resolve().parents[1]
KINDS = ("factual", "procedural", "conditional", "two_questions", "distracting_detail", "situational")
PASSAGE = re.compile(r"### PASSAGE BEGIN ###\n(.*?)\n### PASSAGE END ###", re.S)


def writer(body: dict) -> Reply:
    """A writer that quotes its passage's first sentence, and a judge that says yes."""
    name = body.get("response_format", {}).get("json_schema", {}).get("name", "")
    if name == "entailment":
        return Reply(json.dumps({"follows": "yes"}))
    user = [m["content"] for m in body["messages"] if m["role"] == "user"][-1]
    match = PASSAGE.search(user)
    sentence = re.split(r"(?<=[.!?])\s", (match.group(1) if match else "It works.").strip())[0]
    kind = re.search(r"Kind of question: (.*)", user)
    asked = f"{kind.group(1)[:60] if kind else 'A question'}: {sentence[:30].lower()}?"  # one a kind and passage
    case = {"question": asked, "reference": sentence, "quote": sentence}
    return Reply(json.dumps({**case, "expect": ["says so"], "expect_not": []}))


def bench_reading(copies: int, tmp: Path) -> None:
    folder = tmp / "help"
    source = ROOT / "examples" / "help-centre" / "en"
    for i in range(copies):
        shutil.copytree(source, folder / f"copy-{i:03d}")
    files = sorted(p for p in folder.rglob("*") if p.is_file())
    markdown = tmp / "markdown"
    markdown.mkdir()
    for i in range(len(files)):
        shutil.copy(source / "returns.md", markdown / f"article-{i:04d}.md")
    started = time.perf_counter()
    plain = read_folder(markdown)
    baseline = time.perf_counter() - started
    started = time.perf_counter()
    read = read_folder(folder)
    elapsed = time.perf_counter() - started
    print(
        f"reading {len(files)} files of four formats ({len(read.documents)} documents, {len(read.passages)} passages):"
    )
    print(f"  HTML, PDF, CSV, Markdown  {elapsed:7.3f} s  ({len(files) / elapsed:,.0f} files/s)")
    print(
        f"  Markdown only (baseline)  {baseline:7.3f} s  ({len(plain.passages)} passages)   ratio {elapsed / baseline:.1f}×"
    )


async def _calls(endpoint: Endpoint, n: int) -> float:
    pool = ClientPool()
    client = pool.client_for(endpoint)
    started = time.perf_counter()
    for i in range(n):
        await client.complete([{"role": "user", "content": f"### PASSAGE BEGIN ###\nCall {i}.\n### PASSAGE END ###"}])
    elapsed = time.perf_counter() - started
    await pool.aclose()
    return elapsed


async def _generate(endpoint: Endpoint, items: int, tmp: Path) -> tuple[float, GenerationReport]:
    passages = read_folder(ROOT / "examples" / "help-centre" / "en").passages
    planned = plan(passages, items, kinds=KINDS)
    template = load_prompt(ROOT / "prompts", "en", "scenario_generate")
    pool = ClientPool()
    client = pool.client_for(endpoint)
    generator = Generator(client, client, template, "en", passages, ReplyCache(tmp / "replies.jsonl"))
    started = time.perf_counter()
    report = await generator.run(planned, lambda _r: None)
    elapsed = time.perf_counter() - started
    await pool.aclose()
    return elapsed, report


def bench_generating(items: int, tmp: Path) -> None:
    with FakeOpenAIServer(default=writer) as server:
        endpoint = Endpoint("judge", server.base_url, "fake-judge", 0.0, "OPENAI_API_KEY")
        elapsed, report = asyncio.run(_generate(endpoint, items, tmp))
        baseline = asyncio.run(_calls(endpoint, report.calls))
    kept = len(report.kept)
    print(f"generating {items} planned items against the fake server ({report.calls} calls, {kept} kept):")
    print(f"  the generator     {elapsed:7.3f} s  ({elapsed / items * 1000:.1f} ms a planned item)")
    print(f"  the calls alone   {baseline:7.3f} s   ratio {elapsed / baseline:.2f}×")
    print(f"  tokens a kept item: {report.tokens / max(kept, 1):,.0f} (as the fake server counts them)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--copies", type=int, default=40, help="copies of the help centre to read")
    parser.add_argument("--items", type=int, default=60, help="items to plan against the fake server")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        bench_reading(args.copies, Path(tmp))
        bench_generating(args.items, Path(tmp))


if __name__ == "__main__":
    main()
