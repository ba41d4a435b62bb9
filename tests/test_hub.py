"""A term on the class hub (`jaxcourse hub`, docs/hub.md), end to end.

Real JupyterHub with the Python proxy, real Unix accounts logged in through PAM, nbgrader's real
exchange and formgrader, and Debian's Chromium: two students, an instructor and a TA from a
roster. The instructor releases two lessons; each student logs in, fetches the tiny lesson from
the Assignments tab, answers it in JupyterLab, presses Validate and submits; ada resubmits
after the due date; bob also submits in ada's name from his account. The instructor collects
(bob's forgery is refused) and grades with `jaxcourse grade` as the grader account; the TA gives
bob a hand grade in the formgrader; feedback is released and each student opens their own page.
Along the way each student tries to reach the other's work, feedback, server, the formgrader
and the gradebook, as their own Unix account and through the hub.

Needs root (useradd, and JupyterHub starts each server as its account). Screenshots of every
student, instructor and TA step are kept in the test's tmp_path, under screenshots/; a failed
step keeps every page and the browser's console log under test-artefacts/ and prints the console's tail.
"""
from __future__ import annotations

import csv
import fcntl
import json
import os
import pwd
import re
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path

import nbformat
import pytest
from nbgrader.api import Gradebook

from browser_evidence import BrowserEvidence
from conftest import FIXTURES, REPO
from jaxcourse.authoring.lessonfile import HIDDEN_REGION
from jaxcourse.course import COURSE_ID, Course, CourseError
from jaxcourse.hub import GRADER, Member, check_outside, read_roster, repository
from test_browser import CELLS, CHROMIUM, CHROMIUM_ARGS, INDICATOR, menu, require_browser, shoot, type_into_cell

BIN = Path(sys.executable).parent
ANSWERS = {"sums-solution": "def column_sums(table):\n    return table.sum(axis=0)",
           "checkpoint-solution": "checkpoint_answer = 2"}
needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="needs root: the hub adds Unix accounts (useradd) and "
                                "JupyterHub starts each person's server as their own account")


# --- the roster (no root needed) ----------------------------------------------------------------

@pytest.mark.fast
@pytest.mark.parametrize("text, error", [
    ("username,role\nada,student\nBob,student\n", "line 3: 'Bob' is not a usable username"),
    ("username,role\nada,professor\n", "line 2: role 'professor' for ada: use one of student, ta, instructor"),
    ("username,role\nada,student\nada,ta\n", "line 3: ada is on the roster twice"),
    ("user,role\nada,student\n", "needs a header row with the columns username, role"),
    ("username,role\n", "needs a header row"),
    (f"username,role\n{GRADER},ta\n", f"not root or {GRADER}"),
    ("username,role\nada+x,student\n", "'ada+x' is not a usable username"),
])
def test_a_bad_roster_is_refused_with_the_line_and_the_reason(tmp_path, text, error):
    roster = tmp_path / "roster.csv"
    roster.write_text(text)
    with pytest.raises(CourseError, match=re.escape(error)):
        read_roster(roster)


@pytest.mark.fast
def test_a_roster_reads_roles_and_names(tmp_path):
    roster = tmp_path / "roster.csv"
    roster.write_text("\ufeffusername,role,first_name,last_name,email\nada,Student,Ada,L,ada@example.org\nin1,instructor,,,\n")
    assert read_roster(roster) == [Member("ada", "student", "Ada", "L", "ada@example.org"), Member("in1", "instructor")]


@pytest.mark.fast
@pytest.mark.parametrize("hub_dir, environment, error", [
    ("hub", "hub/venv", None),
    ("hub", "clone/.venv", "the hub runs from {tmp}/clone/.venv, inside {tmp}/clone, which it makes unreadable"),
    ("clone/hub", "hub/venv", "the hub folder {tmp}/clone/hub lies inside {tmp}/clone, which the hub makes unreadable"),
    ("clone", "hub/venv", "the hub folder {tmp}/clone lies inside"),
])
def test_nothing_students_use_may_lie_in_the_repository_the_hub_makes_private(tmp_path, hub_dir, environment, error):
    (tmp_path / "clone" / ".git").mkdir(parents=True)
    (tmp_path / "clone" / "course").mkdir()
    private = repository(tmp_path / "clone" / "course")  # a course in a subfolder: the whole clone, history and all
    assert private == tmp_path / "clone"
    if error is None:
        check_outside(private, tmp_path / hub_dir, tmp_path / environment)
    else:
        with pytest.raises(CourseError, match=re.escape(error.format(tmp=tmp_path))):
            check_outside(private, tmp_path / hub_dir, tmp_path / environment)


@pytest.mark.fast
def test_a_worktree_whose_history_lies_elsewhere_is_refused(tmp_path):
    (tmp_path / "worktree").mkdir()
    (tmp_path / "worktree" / ".git").write_text("gitdir: /elsewhere/.git/worktrees/worktree\n")
    with pytest.raises(CourseError, match="is a git worktree or submodule, whose history"):
        check_outside(repository(tmp_path / "worktree"), tmp_path / "hub", tmp_path / "hub" / "venv")


# --- helpers for the term -----------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def lend_traversal(request, *paths: Path) -> None:
    """Every hub account runs this environment: let others pass each folder above it that they
    cannot (a Python under /root), for this test only."""
    changed = {}
    for path in paths:
        for folder in (path, *path.parents):
            mode = folder.stat().st_mode
            if not mode & 0o001:
                changed.setdefault(folder, mode)
                os.chmod(folder, mode | 0o001)
    request.addfinalizer(lambda: [os.chmod(folder, mode & 0o7777) for folder, mode in changed.items()])


def as_user(user: str, *command: str, cwd: Path, check: bool = True, config: Path | None = None
            ) -> subprocess.CompletedProcess:
    """A command run as `user`, as their terminal would run it (a student's with the hub's `config`)."""
    env = {"PATH": f"{BIN}:/usr/bin:/bin", "HOME": pwd.getpwnam(user).pw_dir, "USER": user, "LANG": "C.UTF-8",
           "JAX_PLATFORMS": "cpu", **({"JUPYTER_CONFIG_PATH": str(config)} if config else {})}
    done = subprocess.run([shutil.which("runuser"), "-u", user, "--", *command], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=600)
    if check:
        assert done.returncode == 0, f"{user}: {' '.join(command)}: {done.returncode}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


def remove_accounts(users: list[str]) -> None:
    """The test's accounts, and any process of theirs the hub left running (each one a process the test started)."""
    import psutil
    uids = set()
    for user in users:
        try:
            uids.add(pwd.getpwnam(user).pw_uid)
        except KeyError:
            pass
    for process in psutil.process_iter(["uids"]):
        if process.info["uids"] and process.info["uids"].real in uids:
            try:
                process.kill()
            except psutil.Error:
                pass
    for user in users:
        subprocess.run(["userdel", "--remove", "--force", user], capture_output=True)
        subprocess.run(["groupdel", user], capture_output=True)


@pytest.fixture
def grader_turn():
    """The grader account (GRADER) is one per machine: hub tests that make, use or remove it take
    turns (`make test` runs tests side by side). The lock lives where only root can create files."""
    fd = os.open("/run/jaxcourse-hub-grader.lock", os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def wait_for(url: str, hub: subprocess.Popen, log: Path, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert hub.poll() is None, f"the hub exited with {hub.returncode}:\n{log.read_text()[-4000:]}"
        try:
            with urllib.request.urlopen(url, timeout=5):
                return
        except urllib.error.HTTPError as exc:
            if exc.code < 500 and exc.code != 404:
                return
        except OSError:
            pass
        time.sleep(0.5)
    raise AssertionError(f"{url} did not answer within {seconds} s:\n{log.read_text()[-4000:]}")


def log_in(browser, evidence: BrowserEvidence, base: str, user: str, password: str, lab: bool = True):
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    context.set_default_timeout(120_000)
    page = context.new_page()
    evidence.watch(page, user)
    page.goto(f"{base}/hub/login")
    page.fill("#username_input", user)
    page.fill("#password_input", password)
    page.click("#login_submit")
    page.wait_for_url(lambda url: "/hub/login" not in url)
    if lab:  # the hub starts their JupyterLab, as their own account
        page.wait_for_url(re.compile(f"/user/{user}/lab"))
        page.locator(".jp-LabShell").wait_for()
    return page


def server_token(user: str) -> str:
    """The hub API token JupyterHub gave the user's own JupyterLab (in its environment)."""
    import psutil
    uid = pwd.getpwnam(user).pw_uid
    server = next(p for p in psutil.process_iter(["uids", "cmdline"]) if p.info["uids"] and p.info["uids"].real == uid
                  and any("jupyterhub-singleuser" in part for part in p.info["cmdline"] or ()))
    return server.environ()["JUPYTERHUB_API_TOKEN"]


def hub_api(base: str, token: str, path: str, method: str = "GET") -> int:
    request = urllib.request.Request(f"{base}/hub/api{path}", method=method, headers={"Authorization": f"token {token}"})
    try:
        with urllib.request.urlopen(request, timeout=30) as reply:
            return reply.status
    except urllib.error.HTTPError as exc:
        return exc.code


@contextmanager
def evidence_on_failure(evidence: BrowserEvidence):
    """Every page as it was when a step failed, and the console log, while the browser still runs."""
    try:
        yield
    except BaseException:
        print(evidence.keep())
        raise


def assignment_row(page, listing: str, lesson: str):
    return page.locator(f"#{listing}_assignments_list .list_item", has_text=lesson).first


def open_assignments(page) -> None:
    menu(page, "Nbgrader", "Assignment List")
    page.locator("#released_assignments_list, #fetched_assignments_list").first.wait_for()


def save_notebook(page) -> None:
    """Save until the tab stays clean. The kernel's first reply writes its language_info into the
    notebook's metadata, which makes it dirty again: on a loaded machine that can come after a save."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    page.wait_for_selector(f'{INDICATOR}[data-status="idle"]')
    for _ in range(5):
        page.keyboard.press("Control+s")
        try:
            page.wait_for_function("() => !document.querySelector('.lm-TabBar-tab.jp-mod-current.jp-mod-dirty')",
                                   timeout=30_000)
            page.wait_for_timeout(1_000)
            if not page.locator(".lm-TabBar-tab.jp-mod-current.jp-mod-dirty").count():
                return
        except PlaywrightTimeout:
            pass
    raise AssertionError("the notebook never stayed saved")


def answer_validate_submit(page, base: str, user: str, released: list[dict], shots: Path, step: str) -> None:
    """Open the fetched notebook, type the answers, press Validate, then Submit in the Assignments tab."""
    page.goto(f"{base}/user/{user}/lab/tree/tiny/tiny.ipynb")
    page.locator(CELLS).nth(len(released) - 1).wait_for()
    for index, cell in enumerate(released):
        answer = ANSWERS.get(cell["metadata"].get("nbgrader", {}).get("grade_id"))
        if answer:
            type_into_cell(page, index, answer)
    save_notebook(page)
    shoot(page, shots / f"{user}-{step}-answered.png")
    page.locator("jp-button.validate-button").click()
    dialog = page.locator(".jp-Dialog").filter(has=page.locator("#validation-message"))
    dialog.wait_for(timeout=180_000)
    shoot(page, shots / f"{user}-{step}-validate.png")
    assert "Success! Your notebook passes all the tests." in dialog.inner_text(), dialog.inner_text()
    dialog.locator(".jp-Dialog-button", has_text="Ok").click()
    open_assignments(page)
    before = page.locator("#submitted_assignments_list .list_item").count()
    assignment_row(page, "fetched", "tiny").locator("button", has_text="Submit").click()
    page.wait_for_function("n => document.querySelectorAll('#submitted_assignments_list .list_item').length > n",
                           arg=before)
    shoot(page, shots / f"{user}-{step}-submitted.png")


# --- the term -----------------------------------------------------------------------------------

@needs_root
def test_a_term_on_the_class_hub(tmp_path, request, grader_turn):
    require_browser()
    from playwright.sync_api import sync_playwright

    started = time.monotonic()
    shots = tmp_path / "screenshots"
    shots.mkdir()
    tag = secrets.token_hex(2)  # fresh account names for every run
    ada, bob, teacher, ta = f"ada{tag}", f"bob{tag}", f"ins{tag}", f"ta{tag}"
    roster = tmp_path / "roster.csv"
    roster.write_text(f"username,role,first_name,last_name,email\n{ada},student,Ada,L,\n{bob},student,Bob,K,\n"
                      f"{teacher},instructor,Ina,S,\n{ta},ta,Tom,A,\n")
    try:
        leftover = pwd.getpwnam(GRADER).pw_dir
    except KeyError:
        leftover = None
    if leftover is not None:  # a hub of this course already runs here, or a killed run left its account
        assert leftover.startswith("/tmp/jaxcourse-hub-"), f"{GRADER} exists ({leftover}): not this test's account"
        remove_accounts([GRADER])
    hub_dir = Path(tempfile.mkdtemp(prefix="jaxcourse-hub-", dir="/tmp"))  # outside tmp_path: the accounts read it
    request.addfinalizer(lambda: shutil.rmtree(hub_dir, ignore_errors=True))
    request.addfinalizer(lambda: remove_accounts([ada, bob, teacher, ta, GRADER]))
    lend_traversal(request, Path(os.path.realpath(sys.executable)).parent, Path(sys.prefix), REPO)
    # The course's clone, where every account could read its solutions and their history but for the hub.
    origin = Course.at(Path(tempfile.mkdtemp(prefix="jaxcourse-origin-", dir="/tmp")))
    request.addfinalizer(lambda: shutil.rmtree(origin.root, ignore_errors=True))
    os.chmod(origin.root, 0o755)
    shutil.copytree(FIXTURES / "source" / "tiny", origin.source / "tiny")
    shutil.copytree(REPO / "source" / "welcome-02", origin.source / "welcome-02")
    git = ("git", "-c", "user.name=ina", "-c", "user.email=ina@example.org")
    for command in (("init", "-q"), ("add", "-A"), ("commit", "-qm", "the course")):
        subprocess.run([*git, *command], cwd=origin.root, check=True, capture_output=True)
    history = ("git", f"--git-dir={origin.root / '.git'}", "show", "HEAD:source/tiny/tiny.ipynb")
    source = nbformat.read(FIXTURES / "source" / "tiny" / "tiny.ipynb", as_version=4)
    hidden = [line.strip() for cell in source.cells for body in HIDDEN_REGION.findall(cell.source)
              for line in body.splitlines() if line.strip()]

    def leaked(text: str) -> list[str]:  # hidden lines in a page, or in a notebook's JSON
        return [line for line in hidden if line in text or json.dumps(line)[1:-1] in text]
    assert leaked(as_user("nobody", *history, cwd=Path("/")).stdout) == hidden  # before the hub: open to all

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = tmp_path / "hub.log"
    with log.open("wb") as out:
        hub = subprocess.Popen([str(BIN / "jaxcourse"), "hub", "--roster", str(roster), "--hub-dir", str(hub_dir),
                                "--course-dir", str(origin.root), "--ip", "127.0.0.1", "--port", str(port)],
                               stdout=out, stderr=subprocess.STDOUT, cwd=tmp_path)

    def stop_hub():  # JupyterHub stops every server it started, the proxy and the formgrader
        hub.terminate()
        try:
            hub.wait(timeout=60)
        except subprocess.TimeoutExpired:
            hub.kill()
    request.addfinalizer(stop_hub)
    wait_for(f"{base}/hub/api/", hub, log)
    wait_for(f"{base}/services/{COURSE_ID}/api/status", hub, log)
    student_config = hub_dir / "jupyter"
    state = hub_dir / "state"
    passwords = dict(csv.reader((state / "passwords.csv").open()))
    assert set(passwords) == {ada, bob, teacher, ta}
    # Root's only: the database (SQLite keeps the mode of the file the hub made), cookie secret, settings, passwords.
    assert (state.stat().st_uid, oct(state.stat().st_mode & 0o7777)) == (0, "0o700")
    private = ("jupyterhub.sqlite", "jupyterhub_cookie_secret", "hub.json", "passwords.csv")
    assert {name: oct((state / name).stat().st_mode & 0o777) for name in private} == dict.fromkeys(private, "0o600")
    assert sorted(p.name for p in hub_dir.iterdir()) == ["course", "exchange", "grader", "jupyter", "state"]
    assert origin.root.stat().st_mode & 0o077 == 0  # the clone: solutions, hidden tests, history
    course = Course.at(hub_dir / "course")
    exchange = hub_dir / "exchange" / COURSE_ID
    home = {user: Path(pwd.getpwnam(user).pw_dir) for user in (ada, bob)}
    assert {oct(home[user].stat().st_mode & 0o777) for user in home} == {"0o700"}
    assert oct((exchange / "inbound").stat().st_mode & 0o7777) == "0o3733"

    def grader(*command: str) -> str:
        done = as_user(GRADER, *command, cwd=course.root)
        return done.stdout + done.stderr

    # The instructor releases two lessons, with nbgrader's 'zero' late policy.
    with (course.root / "nbgrader_config.py").open("a") as config:
        config.write("get_config().LateSubmissionPlugin.penalty_method = 'zero'\n")
    grader("jaxcourse", "release", "tiny", "welcome-02")
    for lesson in ("tiny", "welcome-02"):
        grader("nbgrader", "release_assignment", lesson)
    released = json.loads((course.release / "tiny" / "tiny.ipynb").read_text())["cells"]

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        evidence = BrowserEvidence(request.node.nodeid)
        with evidence_on_failure(evidence):
            page = log_in(browser, evidence, base, teacher, passwords[teacher], lab=False)
            page.goto(f"{base}/services/{COURSE_ID}/formgrader")
            page.get_by_text("welcome-02").first.wait_for()
            shoot(page, shots / "instructor-1-formgrader-released.png")

            # Each student: log in, fetch from the Assignments tab, answer, Validate, submit.
            pages = {}
            for user in (ada, bob):
                pages[user] = page = log_in(browser, evidence, base, user, passwords[user])
                open_assignments(page)
                assignment_row(page, "released", "welcome-02").wait_for()
                shoot(page, shots / f"{user}-1-assignments.png")
                assignment_row(page, "released", "tiny").locator("button", has_text="Fetch").click()
                assignment_row(page, "fetched", "tiny").wait_for()
                answer_validate_submit(page, base, user, released, shots, "2")
                assert (home[user] / "tiny" / "tiny.ipynb").stat().st_uid == pwd.getpwnam(user).pw_uid

            # The due date passes; ada resubmits late. Bob submits in ada's name from his own account.
            time.sleep(1)  # the change times of bob's files are well before the due date
            grader("nbgrader", "db", "assignment", "add", "tiny", f"--duedate={datetime.now(timezone.utc).isoformat()}")
            time.sleep(1.5)
            answer_validate_submit(pages[ada], base, ada, released, shots, "3-late")
            as_user(bob, "nbgrader", "submit", "tiny", f"--student={ada}", cwd=home[bob], config=student_config)

            # What bob cannot do, as his own Unix account.
            inbound = exchange / "inbound"
            adas = [p.name for p in inbound.iterdir() if p.name.startswith(f"{ada}+tiny+") and p.stat().st_uid != pwd.getpwnam(bob).pw_uid]
            assert len(adas) == 2
            denied = {
                "list the inbound folder": ("ls", str(inbound)),
                "rename ada's submission": ("mv", str(inbound / adas[0]), str(inbound / f"{bob}+tiny+x+y")),
                "delete ada's submission": ("rm", "-rf", str(inbound / adas[0])),
                "read ada's submission by its name": ("cat", str(inbound / adas[0] / "tiny.ipynb")),
                "add a file to ada's submission": ("touch", str(inbound / adas[0] / "extra.ipynb")),
                "read ada's notebook in her home": ("cat", str(home[ada] / "tiny" / "tiny.ipynb")),
                "list the released feedback": ("ls", str(exchange / "feedback")),
                "read the gradebook": ("cat", str(course.gradebook)),
                "list the course (solutions, submissions)": ("ls", str(course.root)),
                "list the course's clone": ("ls", str(origin.root)),
                "read a solution in the clone": ("cat", str(origin.source / "tiny" / "tiny.ipynb")),
                "list the hub's state": ("ls", str(state)),
                **{f"read the hub's {name}": ("cat", str(state / name)) for name in private},
            }
            for what, command in denied.items():
                done = as_user(bob, *command, cwd=home[bob], check=False)
                assert done.returncode != 0 and re.search("Permission denied|Operation not permitted", done.stderr), (what, done)
            assert sorted(p.name for p in (inbound / adas[0]).iterdir()) == [
                "submission_secret.txt", "timestamp.txt", "tiny.ipynb"]
            done = as_user(bob, *history, cwd=home[bob], check=False)  # the solutions through the clone's history
            assert done.returncode != 0 and not leaked(done.stdout + done.stderr), done

            # bob takes the names of the grader's runs folder in /tmp first: open to all, and a link to it.
            grader_uid = pwd.getpwnam(GRADER).pw_uid
            planted = [Path(f"/tmp/jaxcourse-runs-{grader_uid}"), Path(f"/tmp/jaxcourse-runs-{grader_uid}-0"),
                       Path(f"/tmp/jaxcourse-runs-{grader_uid}-00000000")]

            def remove_runs_folders():
                for path in {*planted, *Path("/tmp").glob(f"jaxcourse-runs-{grader_uid}-*")}:
                    if path.is_symlink():
                        path.unlink()
                    elif path.exists() and path.lstat().st_uid in (grader_uid, pwd.getpwnam(bob).pw_uid):
                        shutil.rmtree(path)
            remove_runs_folders()  # what an earlier grader of the same uid left
            request.addfinalizer(remove_runs_folders)
            as_user(bob, "mkdir", "-m", "0777", str(planted[0]), str(planted[2]), cwd=home[bob])
            as_user(bob, "ln", "-s", str(planted[0]), str(planted[1]), cwd=home[bob])

            # Through the hub, with bob's login: no other server, no formgrader, no hub admin.
            for path in (f"/user/{ada}/lab", f"/user/{ada}/api/contents/tiny", f"/services/{COURSE_ID}/formgrader",
                         f"/services/{COURSE_ID}/formgrader/api/assignments", "/hub/api/users", f"/hub/api/users/{ada}",
                         "/hub/admin"):
                reply = pages[bob].request.get(base + path)
                assert reply.status in (403, 404), (path, reply.status, reply.url)
            assert pages[bob].request.get(f"{base}/user/{bob}/formgrader").status == 404  # none in his own Lab
            # ... nor with the hub token his own server holds, which any code of his can read.
            token = server_token(bob)
            assert hub_api(base, token, f"/users/{bob}") == 200
            assert hub_api(base, token, "/users") == 403 and hub_api(base, token, f"/users/{ada}") in (403, 404)
            assert hub_api(base, token, f"/users/{ada}/server", "DELETE") in (403, 404)
            assert hub_api(base, token, f"/services/{COURSE_ID}") in (403, 404)

            # The instructor collects (bob's submission in ada's name is refused) and grades, as the grader.
            out = grader("nbgrader", "collect", "tiny")
            assert f"in {ada}'s name but belongs to {bob}" in out, out
            received = json.loads((course.state / "exchange" / "tiny" / f"{ada}.json").read_text())
            assert (inbound / received["inbound"]).stat().st_uid == pwd.getpwnam(ada).pw_uid
            out = grader("jaxcourse", "grade", "tiny", "--quiet")
            rows = {(r["student_id"], r["grade_id"]): r for r in csv.DictReader((course.grades / "tiny.csv").open())}
            assert rows[ada, "sums-test"]["late_penalty"] == "3" and rows[bob, "sums-test"]["late_penalty"] == "0", out
            assert {row["status"] for row in rows.values()} == {"ok"}, out
            bobs = [r for (student, _), r in rows.items() if student == bob]  # honest and on time: full marks
            assert len(bobs) == 2 and all(r["points"] == r["max_points"] for r in bobs), bobs
            # The grader's runs were in a folder of its own, which bob can neither read nor had made.
            runs = [p for p in Path("/tmp").glob(f"jaxcourse-runs-{grader_uid}-*") if p.lstat().st_uid == grader_uid]
            assert runs and {oct(p.lstat().st_mode & 0o7777) for p in runs} == {"0o700"} and not set(runs) & {*planted}
            assert not [*planted[0].iterdir(), *planted[2].iterdir()]
            done = as_user(bob, "ls", str(runs[0]), cwd=home[bob], check=False)
            assert done.returncode != 0 and "Permission denied" in done.stderr, done
            page = log_in(browser, evidence, base, teacher, passwords[teacher], lab=False)
            page.goto(f"{base}/services/{COURSE_ID}/formgrader/gradebook/tiny/tiny")
            page.get_by_text(bob).first.wait_for(state="attached")  # anonymised on screen, as the formgrader shows it
            shoot(page, shots / "instructor-2-formgrader-graded.png")

            # The TA gives bob a hand grade in the formgrader; a student's login never reaches it.
            with Gradebook(course.db_url, COURSE_ID) as gb:
                notebook_id = gb.find_submission_notebook("tiny", "tiny", bob).id
            page = log_in(browser, evidence, base, ta, passwords[ta], lab=False)
            page.goto(f"{base}/services/{COURSE_ID}/formgrader/submissions/{notebook_id}/")
            # The formgrader binds its save handler once its grades have loaded: on a loaded machine a
            # score typed before that is not saved, so wait for the page to settle, and type it again
            # (as a TA would) when it did not reach the gradebook.
            page.wait_for_load_state("networkidle")
            score = page.locator("input.score#sums-test")

            def hand_grade_saved(seconds):
                deadline = time.monotonic() + seconds
                while time.monotonic() < deadline:
                    with Gradebook(course.db_url, COURSE_ID) as gb:
                        if gb.find_grade("sums-test", "tiny", "tiny", bob).manual_score == 1.5:
                            return True
                    time.sleep(0.5)
                return False

            for _ in range(3):
                score.fill("1.5")
                score.press("Tab")
                if hand_grade_saved(30):
                    break
            else:
                raise AssertionError("the TA's hand grade never reached the gradebook")
            shoot(page, shots / "ta-1-hand-grade.png")

            # Feedback out; each student fetches theirs and opens their own page.
            grader("jaxcourse", "grade", "tiny", "--quiet")
            grader("jaxcourse", "feedback", "tiny")
            grader("nbgrader", "release_feedback", "tiny")
            for user, expect in ((ada, "Late submission penalty"), (bob, "graded by hand: 1.5")):
                page = pages[user]
                page.goto(f"{base}/user/{user}/lab")
                open_assignments(page)
                page.locator("#submitted_assignments_list button", has_text="Fetch Feedback").first.click()
                page.get_by_text("(view feedback)").first.wait_for()
                shoot(page, shots / f"{user}-4-feedback-fetched.png")
                feedback, = (home[user] / "tiny" / "feedback").glob("*/tiny.html")
                page.goto(f"{base}/user/{user}/lab/tree/{feedback.relative_to(home[user])}")
                frame = page.frame_locator(".jp-RenderedHTMLCommon iframe, iframe").first
                frame.get_by_text(expect).first.wait_for()
                shoot(page, shots / f"{user}-5-feedback-page.png")
                text = feedback.read_text()
                assert expect in text and not leaked(text), user
            done = as_user(bob, "nbgrader", "fetch_feedback", "tiny", f"--student={ada}", cwd=home[bob], check=False,
                           config=student_config)
            assert not list((home[bob] / "tiny" / "feedback").glob("*/*.html"))[1:], "bob has only his own page"
            assert "graded by hand" in next((home[bob] / "tiny" / "feedback").glob("*/tiny.html")).read_text(), done

    # Grades out to the LMS, both students.
    grader("nbgrader", "export", "--exporter=jaxcourse.export.LmsExport")
    lms = {r["student_id"]: r for r in csv.DictReader((course.grades / "lms.csv").open())}
    assert (lms[ada]["tiny"], lms[bob]["tiny"]) == ("0", "2.5"), lms
    print(f"screenshots: {shots}; the term took {time.monotonic() - started:.0f} s")


@needs_root
def test_make_hub_builds_an_environment_every_account_runs_without_the_clone(tmp_path):
    """`make hub`'s own environment (docs/hub.md): built outside the clone from
    the Makefile's Python (Debian's where there is one), the package installed rather than linked,
    so an account that cannot enter the clone still runs the hub, nbgrader and the grader from it."""
    scratch = Path(tempfile.mkdtemp(prefix="jaxcourse-hubvenv-", dir="/tmp"))
    os.chmod(scratch, 0o755)  # as /srv; the hub folder itself is made by make, as for a newcomer
    hub_dir = scratch / "hub"
    try:
        done = subprocess.run(["make", "--no-print-directory", f"HUB_DIR={hub_dir}", f"{hub_dir}/venv/.package"],
                              cwd=REPO, capture_output=True, text=True, timeout=1200)
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
        probe = ("import sys, jaxcourse, nbgrader, jupyterhub, papermill; "
                 "print(sys.version.split()[0], jaxcourse.__file__)")
        ran = subprocess.run([shutil.which("runuser"), "-u", "nobody", "--", str(hub_dir / "venv" / "bin" / "python"),
                              "-c", probe], cwd="/", capture_output=True, text=True, timeout=120)
        assert ran.returncode == 0, ran.stderr[-2000:]
        version, package = ran.stdout.split()
        assert Path(package).is_relative_to(hub_dir / "venv"), f"the package must not be the clone's: {package}"
        if Path("/usr/bin/python3.11").exists():
            debian = subprocess.run(["/usr/bin/python3.11", "-c", "import sys; print(sys.version.split()[0])"],
                                    capture_output=True, text=True).stdout.strip()
            assert version == debian, (version, debian)
        assert (hub_dir / "venv" / "bin" / "jupyterhub").exists() and (hub_dir / "venv" / "bin" / "jaxcourse").exists()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
