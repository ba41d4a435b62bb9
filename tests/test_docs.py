"""The documents hold to the code (fast, no kernels): what README.md, docs/*.md and the TPU labs'
README say that can drift from the repository.

- every relative link resolves, to a file that exists and, with `#anchor`, to one of its headings;
- every repository path they cite (`jaxcourse/...`, `tests/...`, `requirements-*.txt`, ...) exists,
  and every dotted `jaxcourse.module.name` names a module and a name defined there;
- every `make TARGET` is a Makefile target, every `jaxcourse COMMAND` a subcommand, and each
  `--option` after it an option of that subcommand;
- lesson, platform and device counts follow the lessons' `metadata.jaxcourse`;
- figures quoted in two places agree, and those computed from committed data (the chip's reports
  in benchmarks/results/) are the data's.

Each check is a function that returns its problems, so that `test_each_check_finds_a_planted_error`
can show it failing on a planted mistake.
"""
from __future__ import annotations

import ast
import json
import re
import statistics
import unicodedata
from pathlib import Path

import pytest

from jaxcourse.course import Course
from jaxcourse.grading.report import CSV_COLUMNS
from jaxcourse.grading.score import STATUSES

pytestmark = pytest.mark.fast

REPO = Path(__file__).resolve().parents[1]
COURSE = Course.at(REPO)
LESSONS = COURSE.lessons()
INFO = {lesson: COURSE.info(lesson) for lesson in LESSONS}
TPU_LESSONS = [lesson for lesson in LESSONS if "tpu" in INFO[lesson].platforms]
SEVERAL_DEVICES = [lesson for lesson in LESSONS if INFO[lesson].devices > 1]
RESULTS = REPO / "benchmarks" / "results"
CHIP_DAY = "2026-12-07"   # the chip's reports that the documents quote

def documents(root: Path = REPO) -> dict[Path, str]:
    paths = [root / "README.md", *sorted((root / "docs").glob("*.md")), root / "resources" / "tpu-gcp" / "README.md"]
    return {path: path.read_text(encoding="utf-8") for path in paths}


FENCE = re.compile(r"^```.*?^```[ \t]*$", re.M | re.S)
SPAN = re.compile(r"`([^`\n]+(?:\n[^`\n]+)?)`")


def prose(text: str) -> str:
    """The text without fenced blocks and code spans: where Markdown links are links."""
    return SPAN.sub("", FENCE.sub("", text))


def code(text: str) -> list[str]:
    """Every line of a fenced block, and every code span."""
    lines = [line for block in FENCE.findall(text) for line in block.splitlines()[1:-1]]
    return lines + [span.replace("\n", " ") for span in SPAN.findall(FENCE.sub("", text))]


# --- links ----------------------------------------------------------------------------------

def slug(heading: str) -> str:
    """GitHub's anchor for a heading: inline markup dropped, lower case, punctuation and symbols
    removed (letters, marks, digits, connectors, spaces and hyphens kept), spaces to hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).replace("`", "").strip().lower()
    kept = "".join(ch for ch in text if ch in " -" or unicodedata.category(ch)[0] in "LMN" or unicodedata.category(ch) == "Pc")
    return kept.replace(" ", "-")


def anchors(text: str) -> set[str]:
    found, seen = set(), {}
    for line in FENCE.sub("", text).splitlines():
        match = re.match(r"#{1,6} (.+?)\s*#*\s*$", line)
        if match:
            base = slug(match.group(1))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
    return found


LINK = re.compile(r"\]\(([^)\s]+)\)|^\[[^\]]+\]:\s+(\S+)", re.M)


def link_problems(docs: dict[Path, str]) -> list[str]:
    problems = []
    for path, text in docs.items():
        for match in LINK.finditer(prose(text)):
            target = match.group(1) or match.group(2)
            if re.match(r"[a-z]+:", target):
                continue
            file, _, anchor = target.partition("#")
            where = (path.parent / file).resolve() if file else path
            name = f"{path.relative_to(REPO)}: {target}"
            if not where.exists():
                problems.append(f"{name}: no such file")
            elif anchor and where.suffix == ".md" and anchor not in anchors(where.read_text(encoding="utf-8")):
                problems.append(f"{name}: no heading #{anchor} in {where.relative_to(REPO)}")
    return problems


# --- paths and modules ----------------------------------------------------------------------

TOP = r"(?:jaxcourse|tests|docs|benchmarks|resources|source|release|exercises|downloads|\.ci)"
PATH = re.compile(rf"(?<![\w./~<>-])({TOP}/[\w./<>*-]*[\w>*])")
PACKAGE_PATH = re.compile(r"(?<![\w./~<>-])((?:kernel|grading|run|authoring)/[\w./-]*\.py)")   # inside jaxcourse/
ROOT_FILE = re.compile(r"(?<![\w./-])(requirements-[\w-]+\.txt|course\.toml|pyproject\.toml|Makefile)\b")
PLACEHOLDER = re.compile(r"<(?:lesson|lesson-id|id)>")
DOTTED = re.compile(r"(?<![\w./-])(jaxcourse(?:\.[A-Za-z_]\w*)+)")
EXAMPLE_PATHS = {"source/jit-03"}   # what a document's example makes (authoring.md's new lesson)


def path_problems(docs: dict[Path, str]) -> list[str]:
    problems = []
    for path, text in docs.items():
        for cited in {*PATH.findall(text), *ROOT_FILE.findall(text)} - EXAMPLE_PATHS:
            pattern = PLACEHOLDER.sub(LESSONS[0], cited).rstrip(".")
            pattern = re.sub(r"<[^>]*>", "*", pattern)
            if not (any(REPO.glob(pattern)) if "*" in pattern else (REPO / pattern).exists()):
                problems.append(f"{path.relative_to(REPO)}: cites {cited}, which does not exist")
        for cited in set(PACKAGE_PATH.findall(text)):
            if not (REPO / "jaxcourse" / cited).is_file():
                problems.append(f"{path.relative_to(REPO)}: cites {cited}, which is not in jaxcourse/")
    return problems


def defined_names(module: Path) -> set[str]:
    names = set()
    for node in ast.parse(module.read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                names |= {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {(alias.asname or alias.name).split(".")[0] for alias in node.names}
    return names


def module_problems(docs: dict[Path, str], root: Path = REPO) -> list[str]:
    problems = []
    for path, text in docs.items():
        for dotted in set(DOTTED.findall(text)):
            parts = dotted.split(".")
            for cut in range(len(parts), 0, -1):
                base = root.joinpath(*parts[:cut])
                module = base.with_suffix(".py") if base.with_suffix(".py").is_file() else base / "__init__.py"
                if module.is_file() or base.is_dir():
                    rest = parts[cut:]
                    if rest and not (module.is_file() and rest[0] in defined_names(module)):
                        problems.append(f"{path.relative_to(REPO)}: {dotted}: {'.'.join(parts[:cut])} defines no {rest[0]}")
                    break
    return problems


CITED_TEST = re.compile(r"(?<![\w./-])(test_\w+)(…|\*)?(?!\w|\.py)")


def defined_tests(tests: Path = REPO / "tests") -> set[str]:
    functions = {name for path in tests.glob("test_*.py") for name in re.findall(r"^\s*def (test_\w+)", path.read_text(), re.M)}
    return functions | {path.stem for path in tests.glob("test_*.py")}   # a module named as a unit of the suite


def cited_test_problems(docs: dict[Path, str], defined: set[str]) -> list[str]:
    """Every test a document cites by name is a test of the suite (`name…` or `name*`: a prefix of one)."""
    problems = []
    for path, text in docs.items():
        for name, prefix in set(CITED_TEST.findall(text)):
            if not (any(test.startswith(name) for test in defined) if prefix else name in defined):
                problems.append(f"{path.relative_to(REPO)}: cites {name}{prefix}, which no test file defines")
    return problems


# --- make targets and jaxcourse commands --------------------------------------------------------

def makefile_targets(makefile: Path = REPO / "Makefile") -> set[str]:
    return set(re.findall(r"^([A-Za-z][\w.-]*)\s*:(?!=)", makefile.read_text(), re.M))


def make_problems(docs: dict[Path, str], targets: set[str]) -> list[str]:
    problems = []
    for path, text in docs.items():
        for line in code(text):
            for match in re.finditer(r"(?:^|[\s;&|(])make((?:\s+[^\s#;&|)]+)+)", line):
                words = [word for word in match.group(1).split() if "=" not in word and not word.startswith("-")]
                target = words[0] if words else None
                if target and re.fullmatch(r"[a-z][\w-]*", target) and target not in targets:
                    problems.append(f"{path.relative_to(REPO)}: `make {target}`: no such Makefile target")
    return problems


def cli_options() -> dict[str, set[str]]:
    import argparse
    from jaxcourse.cli import parser
    commands = next(a for a in parser()._actions if isinstance(a, argparse._SubParsersAction)).choices
    return {name: {opt for action in sub._actions for opt in action.option_strings} for name, sub in commands.items()}


def command_problems(docs: dict[Path, str], commands: dict[str, set[str]]) -> list[str]:
    problems = []
    for path, text in docs.items():
        for line in code(text):
            for match in re.finditer(r"(?:^|[\s/;&|(])jaxcourse ([a-z][\w-]*)([^#;&|]*)", line):
                command, rest = match.groups()
                if command not in commands:
                    problems.append(f"{path.relative_to(REPO)}: `jaxcourse {command}`: no such command")
                    continue
                for option in re.findall(r"(?<![\w-])(--[a-z][\w-]*)", rest):
                    if option not in commands[command]:
                        problems.append(f"{path.relative_to(REPO)}: `jaxcourse {command} {option}`: no such option")
    return problems


# --- counts -------------------------------------------------------------------------------------

COUNTS = {"lessons": len(LESSONS), "tpu": len(TPU_LESSONS), "not tpu": len(LESSONS) - len(TPU_LESSONS),
          "several devices": len(SEVERAL_DEVICES)}
# (pattern, what its number counts, documents it applies to (None: all)). A sentence about the
# past says so ("then declared"), and no pattern matches it.
COUNT_CLAIMS = [
    (r"\b(\d+) lessons that declare `tpu`", "tpu", None),
    (r"\b(\d+) lessons declare `tpu`", "tpu", None),
    (r"refuses the other (\d+) there", "not tpu", None),
    (r"\bThe (\d+) lessons that need several devices", "several devices", None),
    (r"\bevery one of the (\d+) lessons", "lessons", None),
    (r"\bA (\d+)-lesson course", "lessons", None),
    (r"\b(\d+) of \d+; \d+ of \d+ \|", "tpu", "README.md"),
    (r"\b\d+ of (\d+); \d+ of \d+ \|", "tpu", "README.md"),
]


def count_problems(docs: dict[Path, str]) -> list[str]:
    problems = []
    for path, text in docs.items():
        name = path.relative_to(REPO).as_posix()
        for pattern, what, only in COUNT_CLAIMS:
            if only is None or only == name:
                for number in re.findall(pattern, text):
                    if int(number) != COUNTS[what]:
                        problems.append(f"{name}: {pattern!r} says {number}, the metadata {COUNTS[what]} ({what})")
        if name == "README.md":   # the entry page: any "N lessons" is the whole course, or the tpu ones
            for match in re.finditer(r"\b(\d+)[- ]lessons?\b( that declare `tpu`)?", text):
                expected = COUNTS["tpu" if match.group(2) else "lessons"]
                if int(match.group(1)) != expected:
                    problems.append(f"README.md: {match.group(0)!r}: the metadata says {expected}")
    return problems


def device_problems(docs: dict[Path, str]) -> list[str]:
    """The several-device lessons, as docs/tpu.md and docs/students.md list them."""
    problems = []
    named = {"welcome-cpu", "welcome-03", "devices-01", "capstone-02", "capstone-03"}
    dist = [lesson for lesson in LESSONS if lesson.startswith("dist-")]
    if set(SEVERAL_DEVICES) != named | set(dist):
        problems.append(f"the several-device lessons are now {SEVERAL_DEVICES}: update docs/tpu.md, docs/students.md and this test")
    if set(SEVERAL_DEVICES) != set(LESSONS) - set(TPU_LESSONS):
        problems.append("the lessons that do not declare tpu are no longer exactly the several-device ones")
    words = {"six": 6, "seven": 7, "five": 5}
    patterns = {"tpu.md": r"welcome-cpu (\d+), welcome-03 and devices-01 (\d+), the (\w+)\s+`dist-` lessons, capstone-02 and capstone-03 (\d+)",
                "students.md": r"welcome-cpu \((\d+)\), welcome-03 and devices-01 \((\d+)\), the\s+(\w+) `dist-` lessons, capstone-02 and capstone-03 \((\d+) each\)"}
    for path, text in docs.items():
        pattern = patterns.get(path.name) if path.parent.name == "docs" else None
        if pattern is None:
            continue
        match = re.search(pattern, re.sub(r"\s+", " ", text))
        if match is None:
            problems.append(f"{path.relative_to(REPO)}: the list of several-device lessons is gone or reworded")
            continue
        four, two, six, eight = match.groups()
        claimed = {"welcome-cpu": int(four), "welcome-03": int(two), "devices-01": int(two),
                   "capstone-02": int(eight), "capstone-03": int(eight), **{lesson: int(eight) for lesson in dist}}
        if words.get(six, -1) != len(dist):
            problems.append(f"{path.relative_to(REPO)}: says {six} dist- lessons, there are {len(dist)}")
        for lesson, devices in claimed.items():
            if INFO[lesson].devices != devices:
                problems.append(f"{path.relative_to(REPO)}: {lesson} needs {INFO[lesson].devices} devices, not {devices}")
    return problems


# --- figures ------------------------------------------------------------------------------------

def table_cell(text: str, row_start: str, column: int = 1) -> str | None:
    """The `column`-th cell of the first table row whose first cell starts with `row_start`."""
    for line in text.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("|") and cells[0].startswith(row_start) and len(cells) > column:
            return cells[column]
    return None


def one(pattern: str, text: str) -> str | None:
    match = re.search(pattern, text, re.M | re.S)
    return match and next(group for group in match.groups() if group is not None)


def chip_reports() -> tuple[dict, dict]:
    tpu = json.loads((RESULTS / f"tpu-{CHIP_DAY}.json").read_text())
    cpu = json.loads((RESULTS / f"cpu-{CHIP_DAY}.json").read_text())
    return tpu, cpu


def figures(docs: dict[Path, str]) -> dict[str, dict[str, str | None]]:
    """Each figure that appears in more than one place: its text in each place."""
    text = {path.relative_to(REPO).as_posix(): body for path, body in docs.items()}
    readme, perf, hub = text["README.md"], text["docs/performance.md"], text["docs/hub.md"]
    makefile = (REPO / "Makefile").read_text()
    return {
        "make check": {"README table": table_cell(readme, "`make check`"),
                       "performance.md": table_cell(perf, "`make check`, the fast tier"),
                       "Makefile": one(r"^# The fast tier:[^\n]*\(([^()\n]*\d[^()\n]*)\)", makefile)},
        "make test": {"README two commands": one(r"^make test\s+# (.+?) on 2 cores", readme),
                      "README table": table_cell(readme, "`make test`"),
                      "performance.md": table_cell(perf, "`make test` from a fresh clone")},
        "make demo": {"README two commands": one(r"^make demo\s+# ([^:]+):", readme),
                      "README table": table_cell(readme, "`make demo`,"),
                      "performance.md": table_cell(perf, "`make demo`,")},
        "make demo-all": {"README": one(r"all 44 lessons \(([^)]+)\)", readme),
                          "README table": table_cell(readme, "`make demo-all`"),
                          "performance.md": table_cell(perf, "`make demo-all`")},
        "welcome-02, 20 submissions": {"README": one(r"20 submissions in ([\d.]+ s)", readme),
                                       "instructors.md": one(r"20 submissions in ([\d.]+ s)", text["docs/instructors.md"]),
                                       "performance.md": one(r"20 submissions in ([\d.]+ s)", perf)},
        "throughput": {"README": table_cell(readme, "throughput against stock nbgrader"),
                       "performance.md": one(r"^\| throughput against stock nbgrader \| \*\*(.+?)\*\* \|", perf)},
        "scaling, 12 workers": {"README": table_cell(readme, "12 workers against 1, 13 cores"),
                                "performance.md": scaling_at_12(perf)},
        "CPU per submission": {"README": table_cell(readme, "CPU per submission against stock"),
                               "performance.md": one(r"^\| CPU per submission against stock's \| \*\*(.+?)\*\*", perf)},
        "JupyterLab server": {"README": one(r"JupyterLab server \| (\d+ MiB)", readme),
                              "hub.md": one(r"JupyterLab server, idle[^|]*\| (\d+ MiB)", hub),
                              "performance.md": one(r"JupyterLab server, idle \| (\d+ MiB)", perf)},
        "kernel, welcome-02": {"hub.md": one(r"welcome-02 \| (\d+) MiB", hub),
                               "performance.md": one(r"kernel, welcome-02 \| (\d+) MiB", perf),
                               "README, in GiB": mib(one(r"(\d\.\d\d) GiB \(welcome-02\)", readme))},
        "kernel, capstone-01": {"hub.md": one(r"\| capstone-01 \| (\d+) MiB", hub),
                                "performance.md": one(r"kernel, capstone-01 \| (\d+) MiB", perf),
                                "README, in GiB": mib(one(r"(\d\.\d\d) GiB \(capstone-01\)", readme))},
    }


def scaling_at_12(perf: str) -> str | None:
    """The 12-worker row of the scaling table, as the README shows it: our speed-up (papermill's)."""
    match = re.search(r"^\| 12 \| [^|]+\| \*\*(.+?)\*\* \|[^|]+\| \*\*(.+?)\*\* \|", perf, re.M)
    return match and f"{match[1]} ({match[2]})"


def mib(gib: str | None) -> str | None:
    """A README figure in GiB (two decimals), as the MiB it rounds: compared by the GiB it shows."""
    return gib and f"~{gib} GiB"


def figure_problems(docs: dict[Path, str]) -> list[str]:
    problems = []
    for name, places in figures(docs).items():
        missing = [where for where, value in places.items() if value is None]
        if missing:
            problems.append(f"{name}: not found in {', '.join(missing)} (reworded? update tests/test_docs.py)")
            continue
        values = {}
        for where, value in places.items():
            if value.startswith("~"):   # a GiB figure: the MiB figures must round to it
                continue
            values[where] = value
        if len(set(values.values())) > 1:
            problems.append(f"{name} differs: " + "; ".join(f"{where}: {value!r}" for where, value in values.items()))
        for where, value in places.items():
            if value.startswith("~"):
                gib = float(value[1:].split()[0])
                for other in values.values():
                    if re.fullmatch(r"\d+", other) and round(int(other) / 1024, 2) != gib:
                        problems.append(f"{name}: {where} says {gib} GiB, {other} MiB is {int(other) / 1024:.2f} GiB")
    return problems


def chip_problems(docs: dict[Path, str]) -> list[str]:
    """Figures computed from the chip's committed reports, and the grading table built from them."""
    tpu, cpu = chip_reports()
    seconds = [student["seconds"] for lesson in tpu["lessons"].values() for student in lesson["students"].values()]
    span = f"{min(seconds):.1f}–{max(seconds):.1f} s"
    median = f"median {statistics.median(seconds):.1f} s"
    differ = sum(tpu_student["cells"] != cpu["lessons"][lesson]["students"][student]["cells"]
                 for lesson, report in tpu["lessons"].items() for student, tpu_student in report["students"].items())
    # compared as statuses and points; the detail strings name the platform's own messages
    differ = sum(
        {cell: row[:3] for cell, row in tpu_student["cells"].items()}
        != {cell: row[:3] for cell, row in cpu["lessons"][lesson]["students"][student]["cells"].items()}
        for lesson, report in tpu["lessons"].items() for student, tpu_student in report["students"].items())
    jax = {student["receipt"]["jax"] for lesson in tpu["lessons"].values() for student in lesson["students"].values()}
    wanted = {
        "README.md": [span, median, f"{differ} of {len(seconds)}", f"jax {jax.pop() if len(jax) == 1 else jax}"],
        "docs/tpu.md": [span, median, f"{differ} of {len(seconds)}", f"{len(tpu['lessons'])} lessons, {len(seconds)} submissions"],
        "docs/tpu-evidence.md": [span, median, f"{len(seconds)}\n  submissions in {len(tpu['lessons'])} lessons"],
    }
    problems = []
    for path, text in docs.items():
        name = path.relative_to(REPO).as_posix()
        flat = re.sub(r"\s+", " ", text)
        for figure in wanted.get(name, []):
            if re.sub(r"\s+", " ", figure) not in flat:
                problems.append(f"{name}: should say {figure!r} (from benchmarks/results/tpu-{CHIP_DAY}.json)")
        if name == "docs/instructors.md":
            block = text.split("<!-- seconds-per-lesson:start -->")[-1].split("<!-- seconds-per-lesson:end -->")[0]
            rows = {cells[0]: cells[1:] for line in block.splitlines() if line.startswith("| ")
                    for cells in [[c.strip() for c in line.strip().strip("|").split("|")]] if cells[0] != "lesson"}
            expected = {lesson: [f"{cpu['lessons'][lesson]['students']['student-correct']['seconds']:.1f}",
                                 f"{report['students']['student-correct']['seconds']:.1f}"]
                        for lesson, report in tpu["lessons"].items()}
            if rows != expected:
                problems.append(f"docs/instructors.md: the seconds-per-lesson table is not the reports' "
                                f"(differs in {sorted(k for k in expected.keys() | rows.keys() if rows.get(k) != expected.get(k))})")
    return problems


def pin_problems(docs: dict[Path, str]) -> list[str]:
    """Versions and columns the documents name, against the pins, the Makefile and the code."""
    text = {path.relative_to(REPO).as_posix(): body for path, body in docs.items()}
    pins = COURSE.pins()
    next_jax = one(r"^NEXT_JAX \?= (\S+)", (REPO / "Makefile").read_text())
    problems = []
    ci_row = table_cell(text["README.md"], "CPU, in CI", 2) or ""
    if f"jax {pins['jax']}" not in ci_row:
        problems.append(f"README.md: the CI row should name jax {pins['jax']} (requirements-cpu.txt), not {ci_row!r}")
    for name in ("docs/instructors.md", "docs/authoring.md"):
        said = re.findall(r"jax (\d+\.\d+\.\d+) \(`NEXT_JAX`|`NEXT_JAX` \((\d+\.\d+\.\d+)", text[name])
        if not said or any(next_jax not in pair for pair in said):
            problems.append(f"{name}: check-source-next's jax should be NEXT_JAX's {next_jax}, not {said}")
    instructors = re.sub(r"\s+", " ", text["docs/instructors.md"])
    if f"`{', '.join(CSV_COLUMNS[:8])}`" not in instructors:
        problems.append(f"docs/instructors.md: the CSV's columns are {CSV_COLUMNS[:8]}")
    extra = CSV_COLUMNS[8:]
    if "plus " + ", ".join(f"`{c}`" for c in extra[:-1]) + f" and `{extra[-1]}`" not in instructors:
        problems.append(f"docs/instructors.md: the CSV's further columns are {extra}")
    if f"`status` is one of `{', '.join(STATUSES)}`" not in instructors:
        problems.append(f"docs/instructors.md: the statuses are {STATUSES}")
    return problems


def shape_problems(docs: dict[Path, str]) -> list[str]:
    """The README stays an entry page, and its figures table short."""
    readme = docs[REPO / "README.md"]
    problems = []
    outside_table = re.sub(r"<!-- lessons:start -->.*<!-- lessons:end -->", "", readme, flags=re.S)
    if len(outside_table.splitlines()) > 160:
        problems.append(f"README.md: {len(outside_table.splitlines())} lines besides the lesson table; "
                        "it is the entry page (at most 160): move the rest into docs/")
    figures_table = readme.split("## Current figures", 1)[-1].split("\n## ", 1)[0]
    for line in figures_table.splitlines():
        if line.startswith("|") and len(line) > 100:
            problems.append(f"README.md, Current figures: a row of {len(line)} characters (at most 100): {line[:60]}…")
    return problems


CHECKS = [link_problems, path_problems, module_problems, count_problems, device_problems,
          figure_problems, chip_problems, pin_problems, shape_problems]


@pytest.fixture(scope="module")
def docs():
    return documents()


@pytest.mark.parametrize("check", CHECKS, ids=lambda check: check.__name__)
def test_the_documents_hold_to_the_code(docs, check):
    assert check(docs) == []


def test_every_make_target_cited_exists(docs):
    assert make_problems(docs, makefile_targets()) == []


def test_every_jaxcourse_command_and_option_cited_exists(docs):
    assert command_problems(docs, cli_options()) == []


def test_every_test_cited_exists(docs):
    assert cited_test_problems(docs, defined_tests()) == []


def test_every_guide_is_linked_from_the_readme(docs):
    readme = docs[REPO / "README.md"]
    unlinked = [path.name for path in (REPO / "docs").glob("*.md")
                if f"(docs/{path.name}" not in readme and path.name != "tpu-evidence.md"]
    assert unlinked == [], "the README's 'Start here' should lead to every guide"


# --- each check can fail ----------------------------------------------------------------------

def planted(docs: dict[Path, str], name: str, old: str, new: str) -> dict[Path, str]:
    path = REPO / name
    assert old in docs[path], f"the planting spot {old!r} is gone from {name}: choose another"
    return {**docs, path: docs[path].replace(old, new, 1)}


PLANTS = [
    (link_problems, "README.md", "(docs/hub.md)", "(docs/hubs.md)"),
    (link_problems, "README.md", "(docs/tpu.md#verified-and-not-yet-verified)", "(docs/tpu.md#verified)"),
    (path_problems, "resources/tpu-gcp/README.md", "`jaxcourse/run/platforms.py`", "`jaxcourse/workers.py`"),
    (path_problems, "docs/architecture.md", "`benchmarks/hub_memory.py`", "`benchmarks/hub_memories.py`"),
    (path_problems, "docs/security.md", "`grading/exchange.py`", "`grading/exchanges.py`"),
    (module_problems, "docs/instructors.md", "jaxcourse.export.LmsExport", "jaxcourse.export.MoodleExport"),
    (count_problems, "README.md", "A 44-lesson course", "A 43-lesson course"),
    (count_problems, "docs/tpu.md", "33 lessons declare `tpu`", "32 lessons declare `tpu`"),
    (count_problems, "docs/tpu.md", "refuses the other 11 there", "refuses the other ten there".replace("ten", "10")),
    (device_problems, "docs/tpu.md", "welcome-cpu 4,", "welcome-cpu 2,"),
    (figure_problems, "docs/performance.md", "| JupyterLab server, idle | 129 MiB", "| JupyterLab server, idle | 130 MiB"),
    (figure_problems, "docs/hub.md", "| capstone-01 | 728 MiB", "| capstone-01 | 828 MiB"),
    (chip_problems, "docs/tpu.md", "24.8–61.6 s", "24.8–60.6 s"),
    (chip_problems, "docs/instructors.md", "| nets-03 | 9.1 | 37.4 |", "| nets-03 | 9.1 | 27.4 |"),
    (pin_problems, "docs/instructors.md", "jax 0.10.2 (`NEXT_JAX`", "jax 0.11.0 (`NEXT_JAX`"),
    (pin_problems, "docs/instructors.md", "`ok, failed,", "`ok, wrong,"),
    (shape_problems, "README.md", "## Lessons\n", "## Lessons\n" + "padding\n" * 80),
]


@pytest.mark.parametrize("check, name, old, new", PLANTS, ids=lambda value: getattr(value, "__name__", None))
def test_each_check_finds_a_planted_error(docs, check, name, old, new):
    assert check(docs) == [], "the documents must be clean before planting"
    assert check(planted(docs, name, old, new)) != []


def test_make_and_command_checks_find_planted_errors(docs):
    assert make_problems(planted(docs, "docs/hub.md", "make hub ROSTER", "make hubs ROSTER"), makefile_targets()) != []
    assert cited_test_problems(planted(docs, "docs/security.md", "`test_memory_cap`", "`test_memory_limit`"), defined_tests()) != []
    commands = cli_options()
    assert command_problems(planted(docs, "docs/instructors.md", "jaxcourse grade welcome-02 ", "jaxcourse grades welcome-02 "), commands) != []
    assert command_problems(planted(docs, "docs/tpu.md", "--unsafe-no-sandbox --workers 1`", "--no-sandbox --workers 1`"), commands) != []
