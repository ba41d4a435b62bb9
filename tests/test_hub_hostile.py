"""Hostile students against the class hub's collection (issue 46), and collection's own walk.

The root test builds the hub the hub's way (HubPlan.prepare: Unix accounts from a roster, the
grader account, the course folder, nbgrader's exchange, the students' nbgrader config with
PrivateSubmit) without starting JupyterHub. Each student is a real account, prefix `hx`, that
submits with the real `nbgrader submit` and then attacks its own submission from its own
shell; one real `nbgrader collect` and one `jaxcourse grade` run as the grader account. Every
attack must fail closed: the hostile student gets rows that say why, or nothing; the honest
students keep their grades; no released feedback holds a solution or a hidden test; and no
folder in inbound is changed by collecting it. One exchange and one round serve every case.

The other tests need no root: copy_folder and candidates on folders made by the current user.
"""
from __future__ import annotations

import csv
import json
import os
import pwd
import re
import secrets
import shutil
import socket
import stat
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone
from pathlib import Path

import nbformat
import pytest

from conftest import FIXTURES, REPO
from jaxcourse.authoring.fabricate import fill
from jaxcourse.authoring.lessonfile import HIDDEN_REGION
from jaxcourse.course import COURSE_ID, Course
from jaxcourse.grading import inbound
from jaxcourse.hub import GRADER, HubPlan, Member
from jaxcourse.run.safefs import DIR_FLAGS
from test_hub import as_user, grader_turn, lend_traversal, needs_root, remove_accounts  # noqa: F401 (a fixture)

RIGHT = {"sums-solution": "def column_sums(table):\n    return jnp.sum(table, axis=0)",
         "checkpoint-solution": "checkpoint_answer = 2"}
WRONG = {**RIGHT, "sums-solution": "def column_sums(table):\n    return jnp.sum(table, axis=1)"}
EARLY = "2000-01-01 00:00:00.000000 UTC"  # the time a forged timestamp.txt claims

# What each hostile student does to its own submission, in its own shell. {mine} is its inbound
# folder, {me} its account, {now} and {rand} the parts of a name nbgrader submit would give; the
# others are the instructor's folders and ada's.
BEFORE_DUE = {
    "src": "ln -sf {source}/tiny.ipynb \"{mine}/tiny.ipynb\"",  # the instructor's notebook, solutions and hidden tests
    "dir": "ln -s {source} '{inbound}/{me}+tiny+{now}+{rand}'",  # the submission folder itself a link
    "tmp": "cp ~/wrong.ipynb /tmp/{me}.ipynb && ln -sf /tmp/{me}.ipynb \"{mine}/tiny.ipynb\"",  # answered late, below
    "peer": "cd \"{mine}\" && ln -sf \"{ada_folder}/tiny.ipynb\" tiny.ipynb && ln -s \"{ada_folder}\" more && "
            "ln -s {feedback} fb",
    "name": "ln -s {source} '{inbound}/{ada}+tiny+{now}+{rand}'",  # a link bearing ada's name
    "hard": "rm \"{mine}/tiny.ipynb\"",  # root then links the instructor's file in its place (below)
    "fifo": "cd \"{mine}\" && rm tiny.ipynb && mkfifo tiny.ipynb && "
            "{python} -c 'import socket; socket.socket(socket.AF_UNIX).bind(\"sock\")'",
    "bad": "mkdir '{inbound}/{me}+tiny+no time+{rand}' '{inbound}/{me} x+tiny+{now}+{rand}' && "
           "cp ~/right.ipynb '{inbound}/{me}+tiny+no time+{rand}/tiny.ipynb'",
    "lock": "mkdir -m 0700 '{inbound}/{me}+tiny+{now}+{rand}'",  # newer than its submission, and unreadable
    "huge": "truncate -s 1G \"{mine}/data.bin\"",  # sparse: costs no disk
    "many": "cd \"{mine}\" && mkdir many && cd many && touch f{{1..3000}}",
}
AFTER_DUE = {
    "tmp": "cp ~/right.ipynb /tmp/{me}.ipynb",  # the inbound folder does not change
    "late": "cp ~/right.ipynb \"{mine}/tiny.ipynb\"",  # the same file, rewritten in place
    "stamp": "printf '{early}' > /tmp/{me}.txt && ln -sf /tmp/{me}.txt \"{mine}/timestamp.txt\"",
    "pad": "printf '{early}%2000s' > \"{mine}/timestamp.txt\"",  # past the 1 KiB grade reads
}
ON_TIME = ["ada", "bob", "src", "tmp", "late", "peer", "hard", "fifo", "bad", "lock", "huge", "many", "swap"]
LATE = ["stamp", "pad"]
NO_SUBMISSION = ["dir", "name"]


def solution_text(course: Course) -> list[str]:
    """Lines only the instructor's notebook holds: its hidden tests and the marker planted in its solution."""
    source = nbformat.read(course.lesson_notebook("tiny"), as_version=4)
    hidden = [line.strip() for cell in source.cells for body in HIDDEN_REGION.findall(cell.source)
              for line in body.splitlines() if line.strip()]
    return hidden + ["BEGIN SOLUTION", "instructor's key"]


@needs_root
def test_hostile_students_get_no_solution_no_time_and_stop_no_collection(tmp_path, request, grader_turn):
    tag = secrets.token_hex(2)
    users = {case: f"hx{case}{tag}" for case in ON_TIME + LATE + NO_SUBMISSION}
    ada = users["ada"]
    hub_dir = Path(tempfile.mkdtemp(prefix="jaxcourse-hub-", dir="/tmp"))  # the prefix test_hub.py cleans up after
    request.addfinalizer(lambda: shutil.rmtree(hub_dir, ignore_errors=True))
    request.addfinalizer(lambda: [Path(f"/tmp/{user}.{ext}").unlink(missing_ok=True)
                                  for user in users.values() for ext in ("ipynb", "txt")])
    request.addfinalizer(lambda: remove_accounts(list(users.values())))

    def remove_our_grader():  # the one prepare made below; never one another hub or test is using
        try:
            if pwd.getpwnam(GRADER).pw_dir == str(hub_dir / "grader"):
                remove_accounts([GRADER])
        except KeyError:
            pass
    request.addfinalizer(remove_our_grader)
    lend_traversal(request, Path(os.path.realpath(sys.executable)).parent, Path(sys.prefix), REPO)

    # The instructor's lesson, with a line in its solution that no student page may ever show.
    origin = Course.at(tmp_path / "origin")
    shutil.copytree(FIXTURES / "source" / "tiny", origin.source / "tiny")
    nb = nbformat.read(origin.lesson_notebook("tiny"), as_version=4)
    for cell in nb.cells:
        cell.source = cell.source.replace("### BEGIN SOLUTION\n", "### BEGIN SOLUTION\n    # instructor's key\n", 1)
    nbformat.write(nb, origin.lesson_notebook("tiny"))
    plan = HubPlan([Member(user, "student") for user in users.values()], hub_dir, origin)
    plan.prepare()
    course, config = plan.course, hub_dir / "jupyter"
    exchange = plan.exchange / COURSE_ID
    inbound_dir, source = exchange / "inbound", course.source / "tiny"
    with (course.root / "nbgrader_config.py").open("a") as handle:
        handle.write("get_config().LateSubmissionPlugin.penalty_method = 'zero'\n")

    def grader(*command: str) -> str:
        done = as_user(GRADER, *command, cwd=course.root)
        return done.stdout + done.stderr

    def shell(case: str, script: str, **more: str) -> None:
        names = {"mine": next(inbound_dir.glob(f"{users[case]}+tiny+*"), None), "me": users[case], "ada": ada,
                 "inbound": inbound_dir, "source": source, "feedback": exchange / "feedback", "early": EARLY,
                 "python": sys.executable, "rand": secrets.token_hex(9),
                 "now": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M:%S.%f UTC")}
        as_user(users[case], "bash", "-ec", script.format(**names, **more), cwd=Path(pwd.getpwnam(users[case]).pw_dir))

    def in_parallel(calls) -> None:
        with ThreadPoolExecutor(max_workers=4) as pool:
            list(pool.map(lambda call: call(), calls))

    grader("jaxcourse", "release", "tiny")
    grader("nbgrader", "release_assignment", "tiny")
    released = nbformat.read(exchange / "outbound" / "tiny" / "tiny.ipynb", as_version=4)
    assert not [line for line in solution_text(course) if line in nbformat.writes(released)]
    for case, user in users.items():  # each student's answers, fetched and typed in their home
        home = Path(pwd.getpwnam(user).pw_dir)
        shutil.copytree(exchange / "outbound" / "tiny", home / "tiny")
        nbformat.write(fill(released, WRONG if case in ("late", "swap") else RIGHT), home / "tiny" / "tiny.ipynb")
        nbformat.write(fill(released, RIGHT), home / "right.ipynb")
        nbformat.write(fill(released, WRONG), home / "wrong.ipynb")
        for path in (home / "tiny", *(home / "tiny").rglob("*"), home / "right.ipynb", home / "wrong.ipynb"):
            shutil.chown(path, user, user)

    def submit(case: str):
        return lambda: as_user(users[case], "nbgrader", "submit", "tiny", cwd=Path(pwd.getpwnam(users[case]).pw_dir),
                               config=config)

    in_parallel([submit(case) for case in ON_TIME])
    ada_folder = next(inbound_dir.glob(f"{ada}+tiny+*"))
    for case, script in BEFORE_DUE.items():
        shell(case, script, ada_folder=ada_folder)
    hard = next(inbound_dir.glob(f"{users['hard']}+tiny+*"))
    notes = hub_dir / "notes.ipynb"  # an instructor's world-readable copy of the lesson
    shutil.copy(course.lesson_notebook("tiny"), notes)
    shutil.chown(notes, GRADER, GRADER)
    os.link(notes, hard / "tiny.ipynb")  # as a host with fs.protected_hardlinks=0 lets the student do
    time.sleep(1)  # every change above is well before the due date
    grader("nbgrader", "db", "assignment", "add", "tiny", f"--duedate={datetime.now(timezone.utc).isoformat()}")
    time.sleep(1)
    in_parallel([submit(case) for case in LATE])
    for case, script in AFTER_DUE.items():
        shell(case, script)
    before = {path: (os.lstat(path).st_mode, os.lstat(path).st_ctime_ns) for path in inbound_dir.rglob("*")}

    out = grader("nbgrader", "collect", "tiny")  # exits 0, or as_user fails the test
    skipped = re.search(r"skipped (\d+) folder\(s\) of tiny", out)
    assert skipped and skipped.group(1) == "5", out
    for case, why in (("dir", "a symbolic link, not a folder"), ("lock", "cannot be read (Permission denied)"),
                      ("bad", "its name holds no time nbgrader can read"), ("bad", "not a usable student id")):
        assert re.search(rf"'{users[case]}[^']*\+tiny\+[^']*': {re.escape(why)}", out), (case, out)
    assert re.search(rf"'{ada}\+tiny\+[^']*': a symbolic link, not a folder", out), out  # name's link
    assert {path: (os.lstat(path).st_mode, os.lstat(path).st_ctime_ns)
            for path in inbound_dir.rglob("*")} == before, "collecting changed nothing in inbound"
    for path in course.submitted.rglob("*"):
        info = os.lstat(path)
        assert stat.S_ISDIR(info.st_mode) or stat.S_ISREG(info.st_mode) and info.st_nlink == 1, path
    shell("swap", "cp ~/right.ipynb \"{mine}/tiny.ipynb\"")  # after collect, before grade

    grader("jaxcourse", "grade", "tiny", "--quiet")
    rows = {}
    for row in csv.DictReader((course.grades / "tiny.csv").open()):
        rows.setdefault(row["student_id"], {})[row["grade_id"]] = row

    def points(case: str) -> tuple:
        sums, checkpoint = rows[users[case]]["sums-test"], rows[users[case]]["checkpoint-test"]
        return sums["status"], sums["points"], checkpoint["status"], checkpoint["points"], sums["late_penalty"]

    # The honest, and those whose attack left a genuine submission, graded on what they submitted.
    for case in ("ada", "bob", "bad", "lock"):
        assert points(case) == ("ok", "2", "ok", "1", "0"), (case, rows[users[case]])
    assert points("swap")[:2] == ("failed", "0"), "graded on what collect copied, not what replaced it"
    for case in ("late", "stamp", "pad"):  # late by the exchange's clock: nbgrader's 'zero' policy
        assert points(case) == ("ok", "2", "ok", "1", "3"), (case, rows[users[case]])
    assert "timestamp.txt says nothing readable" in rows[users["stamp"]]["sums-test"]["detail"]
    assert "timestamp.txt ignored" in rows[users["pad"]]["sums-test"]["detail"]
    # The refused: missing, and the rows say why.
    link = "collect refused tiny.ipynb: a symbolic link"
    refused = {"src": link, "tmp": link, "peer": link, "hard": "collect refused tiny.ipynb: a hard link",
               "fifo": "collect refused tiny.ipynb: a named pipe",
               "huge": "collect copied nothing: the submission holds more than 100 MiB in all",
               "many": "collect copied nothing: the submission holds more than 500 files and folders"}
    for case, why in refused.items():
        for row in rows[users[case]].values():
            assert (row["status"], row["points"]) == ("missing", "0") and why in row["detail"], (case, row)
    assert "'more' (a symbolic link" in rows[users["peer"]]["sums-test"]["detail"]
    assert "'fb' (a symbolic link" in rows[users["peer"]]["sums-test"]["detail"]
    assert "'sock' (a socket)" in rows[users["fifo"]]["sums-test"]["detail"]
    assert not {users[case] for case in ("dir", "name")} & set(rows), "skipped: no rows"
    record = json.loads((course.state / "exchange" / "tiny" / f"{users['src']}.json").read_text())
    assert record["refused"] == {"tiny.ipynb": "a symbolic link (links are not followed)"}

    # Feedback out: nothing of the instructor's in any page a student can fetch.
    grader("jaxcourse", "feedback", "tiny")
    grader("nbgrader", "release_feedback", "tiny")
    pages = list((exchange / "feedback").glob("*.html")) + list(course.feedback.rglob("*.html"))
    assert {users[case] for case in ("ada", "bob", "bad", "lock", "swap", "late", "stamp", "pad")} <= {
        page.parent.parent.name for page in course.feedback.rglob("*.html")}
    secret = solution_text(course)
    for page in pages:
        text = page.read_text()
        assert not [line for line in secret if line in text], page


# --- collection's walk, as the current user (no root) ----------------------------------------------

def copy(folder: Path, dest: Path) -> inbound.Copied:
    fd = os.open(folder, DIR_FLAGS)
    try:
        dest.mkdir()
        return inbound.copy_folder(fd, os.getuid(), dest)
    finally:
        os.close(fd)


@pytest.mark.fast
def test_copy_folder_copies_regular_files_and_refuses_all_else_by_its_path(tmp_path):
    folder = tmp_path / "s"  # short: a socket's path is at most 107 bytes
    (folder / "sub").mkdir(parents=True)
    (folder / "tiny.ipynb").write_text("{}")
    (folder / "sub" / "data.txt").write_text("data")
    (folder / "link").symlink_to("/etc/passwd")
    (folder / "sub" / "folder-link").symlink_to(tmp_path)
    (tmp_path / "elsewhere").write_text("another's file")
    os.link(tmp_path / "elsewhere", folder / "hard")
    os.mkfifo(folder / "pipe")
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(folder / "sock"))
    deepest = folder.joinpath(*["d"] * (inbound.MAX_DEPTH + 1))
    deepest.mkdir(parents=True)
    (deepest / "deep.txt").write_text("too deep")
    seen = [folder, *(p for p in folder.rglob("*") if p != deepest / "deep.txt")]

    copied = copy(folder, tmp_path / "copy")
    assert sorted(str(p.relative_to(tmp_path / "copy")) for p in (tmp_path / "copy").rglob("*")
                  if not p.is_dir()) == ["sub/data.txt", "tiny.ipynb"]
    assert (tmp_path / "copy" / "sub" / "data.txt").read_text() == "data"
    assert copied.refused == {
        "link": "a symbolic link (links are not followed)",
        "sub/folder-link": "a symbolic link (links are not followed)",
        "hard": "a hard link (2 names for one file): only a file of the submission's own is collected",
        "pipe": "a named pipe (FIFO)", "sock": "a socket", "/".join(["d"] * (inbound.MAX_DEPTH + 1)):
        f"deeper than {inbound.MAX_DEPTH} folders"}
    assert copied.over_limit is None
    assert copied.received == inbound.utc(max(os.lstat(p).st_ctime for p in seen))  # the latest change it read


@pytest.mark.fast
def test_a_submission_over_a_cap_is_copied_as_nothing_with_the_reason(tmp_path):
    many, huge = tmp_path / "many", tmp_path / "huge"
    many.mkdir()
    for i in range(inbound.MAX_ENTRIES + 1):
        (many / f"f{i}").touch()
    huge.mkdir()
    (huge / "tiny.ipynb").write_text("{}")
    with open(huge / "data.bin", "wb") as handle:
        handle.truncate(inbound.MAX_BYTES + 1)  # sparse
    for folder, why in ((many, f"more than {inbound.MAX_ENTRIES} files and folders"),
                        (huge, f"more than {inbound.MAX_BYTES // 2**20} MiB in all")):
        copied = copy(folder, tmp_path / f"{folder.name}-copy")
        assert (copied.over_limit, copied.refused) == (why, {})
        assert list((tmp_path / f"{folder.name}-copy").iterdir()) == []


@pytest.mark.fast
def test_inbound_names_that_are_no_submission_are_skipped_with_the_reason(tmp_path):
    me = pwd.getpwuid(os.getuid()).pw_name
    good = f"{me}+tiny+2024-01-01 00:00:00.000000 UTC+abc"
    for name in (good, f"{me}+tiny+no time+abc", f"{me} x+tiny+2024-01-01 00:00:00 UTC+abc", f"{me}+other+2024+abc"):
        (tmp_path / name).mkdir()
    (tmp_path / f"{me}+tiny+2024-01-02 00:00:00 UTC+link").symlink_to(tmp_path / good)
    (tmp_path / f"{me}+tiny+2024-01-03 00:00:00 UTC+file").write_text("")
    fd = os.open(tmp_path, DIR_FLAGS)
    try:
        found, skipped = inbound.candidates(fd, "tiny", "*", os.getuid())
        assert inbound.candidates(fd, "tiny", "nobody", os.getuid()) == ([], [])  # --student=nobody
    finally:
        os.close(fd)
    assert [candidate.name for candidate in found] == [good]
    assert sorted(skipped) == sorted([
        f"'{me}+tiny+no time+abc': its name holds no time nbgrader can read",
        f"'{me} x+tiny+2024-01-01 00:00:00 UTC+abc': not a usable student id",
        f"'{me}+tiny+2024-01-02 00:00:00 UTC+link': a symbolic link, not a folder",
        f"'{me}+tiny+2024-01-03 00:00:00 UTC+file': not a folder"])
