"""What a Chromium test keeps when it fails: a screenshot of every open page and the browser
console's messages, under test-artefacts/<test>/ (ignored by git), with their paths and the
console's last lines in the failure report, since a CI log is all that comes back. A fixture
sets `request.node.browser_evidence`; this plugin's report hook (conftest loads it) keeps it when
the test fails, while the pages are still open."""
from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
ARTEFACTS = Path(os.environ.get("JAXCOURSE_TEST_ARTEFACTS", REPO / "test-artefacts"))
CONSOLE_TAIL = 40


def file_name(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text)


class BrowserEvidence:
    def __init__(self, test_id: str):
        self.folder = ARTEFACTS / file_name(test_id)[:120]
        self.console: list[str] = []
        self.pages: list = []

    def watch(self, page, label: str = "") -> None:
        """Record `page`'s console messages and uncaught errors from now on."""
        label = label or f"page-{len(self.pages)}"
        self.pages.append((label, page))
        stamp = lambda: time.strftime("%H:%M:%S")  # noqa: E731
        page.on("console", lambda msg: self.console.append(f"{stamp()} {label} {msg.type}: {msg.text}"))
        page.on("pageerror", lambda error: self.console.append(f"{stamp()} {label} pageerror: {error}"))
        page.on("crash", lambda _: self.console.append(f"{stamp()} {label} crashed"))

    def keep(self) -> str:
        """Write the screenshots and the console log; what to add to the failure report."""
        self.folder.mkdir(parents=True, exist_ok=True)
        kept = []
        for label, page in self.pages:
            shot = self.folder / f"{file_name(label)}.png"
            try:
                page.screenshot(path=str(shot), full_page=True, timeout=10_000)
                kept.append(str(shot))
            except Exception as exc:  # a closed or crashed page: the others still draw
                kept.append(f"{label}: no screenshot ({type(exc).__name__})")
        log = self.folder / "console.log"
        log.write_text("\n".join(self.console) + "\n")
        tail = "\n".join(self.console[-CONSOLE_TAIL:]) or "(no console messages)"
        return "\n".join(["kept:", *kept, str(log), f"the console's last {CONSOLE_TAIL} lines:", tail])


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    report = yield
    evidence = getattr(item, "browser_evidence", None)
    if evidence is not None and report.failed and report.when == "call":
        report.sections.append(("Chromium: screenshots and console", evidence.keep()))
    return report
