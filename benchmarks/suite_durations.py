"""Where the test suite's time goes, per test file, from pytest's JUnit XML.

    make test PYTEST_ARGS="--junitxml=after.xml"
    python benchmarks/suite_durations.py before.xml after.xml

Prints, for each file, the seconds its tests took (set-up, call and teardown: worker time, so
under `-n 2` the files add up to about twice the wall time), one column per report, with the
change against the first. A Markdown table, as docs/performance.md keeps it.
"""
from __future__ import annotations

import argparse
import sys
import xml.etree.ElementTree as ET
from collections import defaultdict


def per_file(path: str) -> tuple[dict[str, float], dict[str, int]]:
    seconds: dict[str, float] = defaultdict(float)
    counts: dict[str, int] = defaultdict(int)
    for case in ET.parse(path).getroot().iter("testcase"):
        module = case.get("classname", "").split(".")
        name = next((f"{part}.py" for part in module if part.startswith("test_")), case.get("file") or "?")
        seconds[name] += float(case.get("time") or 0)
        counts[name] += 1
    return seconds, counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("reports", nargs="+", metavar="JUNIT_XML")
    args = parser.parse_args(argv)
    runs = [per_file(path) for path in args.reports]
    files = sorted({name for seconds, _ in runs for name in seconds}, key=lambda name: -runs[-1][0].get(name, 0))
    head = ["file", *(f"{path} (s)" for path in args.reports)] + (["change"] if len(runs) > 1 else [])
    print("| " + " | ".join(head) + " |\n|" + "---|" * len(head))
    for name in [*files, "total"]:
        values = [sum(seconds.values()) if name == "total" else seconds.get(name, 0.0) for seconds, _ in runs]
        cells = [f"{value:,.0f}" for value in values]
        if len(runs) > 1:
            cells.append(f"{values[-1] / values[0]:.2f}×" if values[0] else "new")
        label = f"**{name}**" if name == "total" else f"`{name}` ({runs[-1][1].get(name, 0)})"
        print("| " + " | ".join([label, *cells]) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
