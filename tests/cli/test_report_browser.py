"""The HTML report in a real browser: the system's Chromium (Debian's `chromium`) driven by
Playwright, never a browser Playwright downloads. Renders without a console error or a network
request, the filters change the rows shown, hostile model text stays text and never runs.

Screenshots at 1280×800 and 390×844 are taken every time (and checked); with
RAGTUI_WRITE_SCREENSHOTS=1 they are written to docs/screenshots/ (the committed ones), else to
the test's own folder, so an ordinary test run leaves the checkout as it was."""

from __future__ import annotations

import os
import re
import shutil
import struct
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ragtui.cli.main import main
from ragtui.core.store.store import Store
from tests.fakes.synthetic_runs import write_dialogue

from .test_html_report import hostile_run

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-gpu",
    "--no-first-run",
    "--disable-component-update",
    "--disable-sync",
]
DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"

playwright_api = pytest.importorskip(
    "playwright.sync_api", reason="playwright is not installed (pip install -e '.[test]')"
)
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists() and shutil.which("chromium") is None,
        reason="no Chromium at /usr/bin/chromium (apt-get install chromium; .ci/run installs it)",
    ),
]
DIALOG_TEXT = "<script>alert('xss')</script><img src=y onerror=alert(1)>"


@pytest.fixture
def browser() -> Iterator[Any]:
    executable = str(CHROMIUM) if CHROMIUM.exists() else str(shutil.which("chromium"))
    with playwright_api.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=executable, args=ARGS, headless=True)
        try:
            yield launched
        finally:
            launched.close()


def report(tmp_path: Path) -> tuple[Path, Path]:
    db = hostile_run(tmp_path / "runs.db")
    store = Store.open(db)
    write_dialogue(store, "r1", "refund", "angry", [0.3], customer=lambda turn: DIALOG_TEXT)
    store.close()
    out = tmp_path / "report.html"
    assert main(["report", "--db", str(db), "r1", "--html", str(out)]) == 0
    return db, out


def open_page(browser: Any, out: Path, width: int, height: int) -> tuple[Any, list[str], list[str], list[str]]:
    page = browser.new_page(viewport={"width": width, "height": height})
    errors: list[str] = []
    requests: list[str] = []
    dialogs: list[str] = []
    page.on("console", lambda m: errors.append(f"{m.type}: {m.text}") if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))
    page.on("request", lambda r: requests.append(r.url))

    def dismiss(dialog: Any) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", dismiss)
    page.add_init_script("window.pwned = 0;")  # the hostile text would set it, were it run
    page.goto(out.as_uri())
    page.wait_for_selector("#shown")
    return page, errors, requests, dialogs


def visible(page: Any) -> int:
    return int(page.evaluate("document.querySelectorAll('details.dlg:not([hidden])').length"))


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_report_in_chromium(browser: Any, tmp_path: Path):
    db, out = report(tmp_path)
    page, errors, requests, dialogs = open_page(browser, out, 1280, 800)
    total = visible(page)
    assert total == 14
    assert page.text_content("#shown") == "14 of 14 dialogue(s) shown"

    # Filters: a scenario, then also a persona, then failed only; each narrows to what it says.
    page.select_option("#f-scenario", label="outage")
    outage = visible(page)
    assert 1 <= outage < total
    names = page.evaluate(
        "Array.from(document.querySelectorAll('details.dlg:not([hidden]) > summary')).map(s => s.textContent)"
    )
    assert all(" outage × " in n for n in names)
    page.select_option("#f-persona", label="calm")
    assert 1 <= visible(page) <= outage
    page.select_option("#f-scenario", value="")
    page.select_option("#f-persona", value="")
    page.check("#f-failed")
    failed = visible(page)
    badges = page.evaluate(
        "Array.from(document.querySelectorAll('details.dlg:not([hidden]) .badge')).map(b => b.textContent)"
    )
    assert failed >= 2 and "passed" not in badges
    page.uncheck("#f-failed")
    page.select_option("#f-outcome", label="resolved")
    assert 1 <= visible(page) < total
    page.select_option("#f-outcome", value="")
    assert visible(page) == total

    # Hostile text: shown as the characters it is, never markup, never run.
    hostile = page.locator("details.dlg", has_text="window.pwned = 1").first
    hostile.locator("summary").click()
    assert "<script>window.pwned = 1</script>" in hostile.inner_text()
    assert page.evaluate("window.pwned") == 0
    assert page.evaluate("document.scripts.length") == 1
    assert page.evaluate("document.querySelectorAll('img, iframe, object, embed').length") == 0
    hrefs = page.evaluate("Array.from(document.querySelectorAll('a')).map(a => a.getAttribute('href'))")
    assert hrefs and all(re.fullmatch(r"#d\d+", h) for h in hrefs)  # only links to a dialogue of the page
    angry = page.locator("details.dlg", has_text="refund × angry").last
    angry.locator("summary").click()
    assert DIALOG_TEXT in angry.inner_text()
    assert dialogs == []
    assert errors == [], errors
    assert requests == [out.as_uri()]  # the file itself, nothing from any network

    target = DOCS if os.environ.get("RAGTUI_WRITE_SCREENSHOTS") == "1" else tmp_path
    desktop = target / "report-desktop.png"
    page.locator("details.dlg").first.locator("summary").click()
    # The charts, the filters and an open transcript in one view.
    page.evaluate("Array.from(document.querySelectorAll('h2')).find(h => h.textContent === 'Charts').scrollIntoView()")
    page.screenshot(path=str(desktop))
    assert png_size(desktop) == (1280, 800)

    phone, phone_errors, _requests, _dialogs = open_page(browser, out, 390, 844)
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width} px wide on a 390 px phone"  # readable without sideways scrolling
    mobile = target / "report-phone.png"
    phone.screenshot(path=str(mobile))
    assert png_size(mobile) == (390, 844)
    assert phone_errors == []
    assert db.exists()
