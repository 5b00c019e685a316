"""The largest values ragtui accepts for the sizes of a run (shared by ragtui.toml and the flags
that override it, so a value the config refuses is refused on the command line too) and the
longest ``ragtui doctor`` waits.

Past these a value is a typo, not a plan: a run keeps every turn's history in each prompt and
stores its whole plan before the first dialogue starts, so an unbounded count fills the memory
(and the database) long before a model is called, and a 31-digit one does not fit SQLite's
integers at all.
"""

from __future__ import annotations

MAX_TURNS = 100  # turns per dialogue: a support chat that has not ended by then will not
MAX_REPEAT = 100  # trials per scenario × persona in one run: pass^k is read for k of a few to tens
# `ragtui run --workers`: each worker is a whole ragtui process (~60 MB, its own SQLite
# connection); a few per core is all the CPU can use, and past a few dozen they only wait on the
# database's write lock. A typo (`--workers 100000`) would start a process per count.
MAX_WORKERS = 64
# Dialogues one process runs at once (`concurrency`, `--concurrency`): each holds an open stream
# to the bot and the judge; past a few hundred they only queue at the endpoint, and a typo
# (`--concurrency 100000`) would open that many coroutines and connections at once.
MAX_CONCURRENCY = 256
# `ragtui doctor --timeout`: seconds each endpoint and the bot under test get to answer. The
# endpoint's own timeout is for data that stops coming during a run (120 s by default, with a
# retry); a check must answer while someone watches it, whatever a server that accepts the
# connection and never replies does.
DOCTOR_WAIT = 30.0
MAX_DOCTOR_WAIT = 600.0


def count_text(value: int) -> str:
    """A count as a message shows it: whole up to 20 digits, else short (``1.23457e+30``), so a
    pasted 31-digit number does not fill the line."""
    text = str(value)
    return text if len(text) <= 20 else f"{value:g}"
