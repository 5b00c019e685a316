"""The HTML report of a large run, measured.

A synthetic run of N dialogues × 3 scored turns with its three dialogue verdicts is written into
a real SQLite file, with texts of the length a real run stores (customer messages of
about 200 characters, bot answers of about 1,200, a verdict conclusion of about 200 per turn).
Then, each in its own process: ``ragtui report RUN --html`` and, as the baseline measured in
the same run, ``ragtui export --run RUN --csv`` (a command that reads and writes the same
dialogues); and in-process ``run_report_html`` alone. Prints the report's size and time, and
both as ratios to the CSV export. The goals: ≤ 10 MB and ≤ 5 s for 1,000 dialogues.

Nothing here asserts: it prints figures. Usage: ``python bench/bench_report.py [--dialogues 1000]``.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from bench_compare import measured

from ragtui.core.runs.html_report.build import run_report_html
from ragtui.core.store.store import Store
from stand_ins.synthetic_runs import write_run

CUSTOMER = "My account is locked after the update and I need the invoice for last month before Friday. " * 2
ANSWER = (
    "Thanks for reaching out. To unlock the account, open Settings > Security, choose 'Unlock', and "
    "confirm with the code we e-mail you. Invoices for the last twelve months are under Billing > "
    "Invoices; each has a PDF link. If the code does not arrive within five minutes, check the spam "
    "folder, then ask for a new one. "
) * 4
CONCLUSION = "The answer follows the knowledge base on unlocking and invoices and cites the right menu paths. " * 2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dialogues", type=int, default=1000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db_path = Path(tmp) / "report.db"
        store = Store.open(db_path)
        for i, seed in enumerate((1, 2)):  # two earlier runs of the same set: the trend has points
            write_run(store, f"bench-{i}", 50, seed=seed, dialogue_verdicts=True)
        # The earlier runs are smaller: they only feed the trend, whose figures come from scores.
        # The measured one has texts of the size a real run stores (the synthetic ones are a few words).
        write_run(
            store,
            "bench-2",
            args.dialogues,
            seed=3,
            dialogue_verdicts=True,
            customer=CUSTOMER,
            answer=ANSWER,
            conclusion=CONCLUSION,
        )
        started, cpu_started = time.perf_counter(), time.process_time()
        text = run_report_html(store, "bench-2", {})
        in_process, in_process_cpu = time.perf_counter() - started, time.process_time() - cpu_started
        store.close()
        html, csv = Path(tmp) / "report.html", Path(tmp) / "report.csv"
        db = ["--db", str(db_path)]
        report_wall, report_cpu, report_rss = measured("report", *db, "bench-2", "--html", str(html))
        export_wall, export_cpu, export_rss = measured("export", *db, "--run", "bench-2", "--csv", str(csv))
        html_mb, csv_mb = html.stat().st_size / 1e6, csv.stat().st_size / 1e6
        print(
            f"run of {args.dialogues} dialogues × 3 turns with dialogue verdicts; database {db_path.stat().st_size / 1e6:.1f} MB"
        )
        print(f"{'':44} {'wall':>8} {'CPU':>8} {'peak RSS':>9} {'file':>9}")
        print(
            f"{'ragtui report --html, whole process':44} {report_wall:7.2f}s {report_cpu:7.2f}s {report_rss:7.0f}MB {html_mb:7.2f}MB"
        )
        print(
            f"{'ragtui export --csv (baseline), whole process':44} {export_wall:7.2f}s {export_cpu:7.2f}s {export_rss:7.0f}MB {csv_mb:7.2f}MB"
        )
        print(
            f"{'run_report_html in-process':44} {in_process:7.2f}s {in_process_cpu:7.2f}s {'':>9} {len(text.encode()) / 1e6:7.2f}MB"
        )
        print(
            f"{'report / export':44} {report_wall / export_wall:7.2f}× {report_cpu / export_cpu:7.2f}× "
            f"{report_rss / export_rss:8.2f}× {html_mb / csv_mb:8.2f}×"
        )
        print(f"goals for 1,000 dialogues: ≤ 10 MB, ≤ 5 s — {html_mb:.2f} MB, {report_wall:.2f} s wall")


if __name__ == "__main__":
    main()
