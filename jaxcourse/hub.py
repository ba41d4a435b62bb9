"""A class hub on one machine (`jaxcourse hub`): JupyterHub for the roster's Unix accounts, nbgrader's
exchange, and the formgrader as a hub service (docs/hub.md).

Everyone on the roster is a real Unix account, logged in through PAM, and each one's JupyterLab
runs under that account: nbgrader's exchange keeps students apart by Unix permissions, so it
needs one account per student. The course folder belongs to a grader account that only the
formgrader service runs as; students can read neither it nor each other's homes.
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
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from .course import COURSE_ID, PINS_FILE, SETTINGS_FILE, Course, CourseError

ROLES = ("student", "ta", "instructor")
COLUMNS = ("username", "role", "first_name", "last_name", "email")
# A portable Unix name (useradd's default rule) that nbgrader's exchange can also carry ('+' splits its names).
USERNAME = re.compile(r"^[a-z_][a-z0-9_-]{0,31}$")
GRADER = f"grader-{COURSE_ID}"           # owns the course folder; the formgrader runs as it
FORMGRADERS = f"formgrade-{COURSE_ID}"   # hub group: instructors and TAs, who may open the formgrader
STUDENTS = f"nbgrader-{COURSE_ID}"       # hub group: students (nbgrader's course list)
TEMPLATE = Path(__file__).parent / "templates" / "jupyterhub" / "jupyterhub_config.py"
# What only root may read, in <hub-dir>/state (0700); a hub made before kept them at the top of its
# folder, readable by all, and its first start now moves them there.
PRIVATE = ("jupyterhub.sqlite", "jupyterhub_cookie_secret", "passwords.csv", "extra_config.py", "hub.json",
           "jupyterhub_config.py", "jupyterhub-proxy.pid")


@dataclass(frozen=True)
class Member:
    username: str
    role: str
    first_name: str = ""
    last_name: str = ""
    email: str = ""


def read_roster(path: Path) -> list[Member]:
    """The roster CSV (columns COLUMNS, a header row first), every row checked; errors name the row."""
    try:
        with open(path, newline="", encoding="utf-8-sig") as handle:
            rows = list(csv.DictReader(handle))
            header = rows and list(rows[0]) or []
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise CourseError(f"cannot read the roster {path}: {exc}") from None
    missing = [column for column in ("username", "role") if column not in header]
    if not rows or missing:
        raise CourseError(f"{path}: needs a header row with the columns {', '.join(COLUMNS)} "
                          f"(username and role required) and one row per person")
    members, seen = [], set()
    for line, row in enumerate(rows, start=2):
        name, role = (row.get("username") or "").strip(), (row.get("role") or "").strip().lower()
        if not USERNAME.match(name) or name in ("root", GRADER):
            raise CourseError(f"{path}, line {line}: {name!r} is not a usable username (lower-case letters, digits, "
                              f"'_' and '-', at most 32, starting with a letter; not root or {GRADER})")
        if role not in ROLES:
            raise CourseError(f"{path}, line {line}: role {role!r} for {name}: use one of {', '.join(ROLES)}")
        if name in seen:
            raise CourseError(f"{path}, line {line}: {name} is on the roster twice")
        seen.add(name)
        members.append(Member(name, role, *((row.get(c) or "").strip() for c in COLUMNS[2:])))
    return members


def run(*command: str, stdin: str | None = None) -> None:
    done = subprocess.run(command, input=stdin, capture_output=True, text=True)
    if done.returncode:
        raise CourseError(f"{' '.join(command[:3])} … failed ({done.returncode}): {done.stderr.strip()}")


def exists(user: str) -> bool:
    try:
        pwd.getpwnam(user)
        return True
    except KeyError:
        return False


def add_accounts(members: list[Member], passwords: Path) -> list[str]:
    """A Unix account for each member who has none, with a private home and a random password
    (appended to `passwords`, readable by root only). Existing accounts are left as they are."""
    created = []
    for member in members:
        if exists(member.username):
            continue
        comment = " ".join(filter(None, (member.first_name, member.last_name))) or member.username
        run("useradd", "--create-home", "--shell", "/bin/bash", "--comment", comment, member.username)
        os.chmod(pwd.getpwnam(member.username).pw_dir, 0o700)  # Debian's default (0755) shows one home to all
        password = secrets.token_urlsafe(12)
        run("chpasswd", stdin=f"{member.username}:{password}\n")
        fd = os.open(passwords, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        with os.fdopen(fd, "a") as handle:
            handle.write(f"{member.username},{password}\n")
        created.append(member.username)
    return created


def owned_folder(path: Path, owner: str, mode: int) -> None:
    path.mkdir(parents=True, exist_ok=True)
    account = pwd.getpwnam(owner)
    os.chown(path, account.pw_uid, account.pw_gid)
    os.chmod(path, mode)


def make_exchange(root: Path) -> None:
    """nbgrader's exchange: a root anyone may create in (sticky, like /tmp), and the course's folders
    as `nbgrader release_assignment` makes them, owned by the grader. inbound gets the sticky bit
    besides nbgrader's 2733, so no student can rename or delete another's submission even by name."""
    owned_folder(root, "root", 0o1777)
    course = root / COURSE_ID
    owned_folder(course, GRADER, 0o755)
    owned_folder(course / "outbound", GRADER, 0o755)
    owned_folder(course / "inbound", GRADER, 0o3733)
    owned_folder(course / "feedback", GRADER, 0o711)


def make_course(origin: Course, course: Course, exchange: Path) -> bool:
    """The hub's course folder, a copy of `origin`'s lessons and settings owned by the grader and
    set to the hub's exchange, made once: afterwards it is the instructors' (gradebook, submissions)."""
    if course.root.exists():
        return False
    origin.lessons()  # a folder without lessons fails here, with the reason
    course.root.mkdir(parents=True)
    shutil.copytree(origin.source, course.source)
    for name in ("nbgrader_config.py", SETTINGS_FILE, PINS_FILE):
        if (origin.root / name).is_file():
            shutil.copy(origin.root / name, course.root / name)
    course.ensure_config_file()
    with (course.root / "nbgrader_config.py").open("a") as config:
        config.write(f"\n# The class hub's exchange (jaxcourse hub).\nget_config().Exchange.root = {str(exchange)!r}  # noqa: F821\n")
    account = pwd.getpwnam(GRADER)
    for folder, _, files in os.walk(course.root):
        for path in (folder, *(os.path.join(folder, name) for name in files)):
            os.chown(path, account.pw_uid, account.pw_gid)
    os.chmod(course.root, 0o700)  # solutions, hidden tests, the gradebook, every submission
    return True


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def check_readable_by(user: str, python: Path) -> None:
    """Everyone's server runs this environment: refuse early when the account cannot use it."""
    done = subprocess.run(["runuser", "-u", user, "--", str(python), "-c", "import jaxcourse, nbgrader"],
                          capture_output=True, text=True)
    if done.returncode:
        raise CourseError(f"{user} cannot run {python} (every hub user's server does): build the hub's environment "
                          f"where every account can read it (`make hub` builds <hub-dir>/venv). {done.stderr.strip()[-300:]}")


def repository(course: Path) -> Path:
    """The top of the git work tree holding the course folder (the solutions and their history), or the folder."""
    return next((top for top in (course, *course.parents) if (top / ".git").exists()), course)


def check_outside(private: Path, hub_dir: Path, environment: Path) -> None:
    """The hub makes `private` (the course's repository) unreadable to others: nothing they use may lie in it."""
    if (private / ".git").is_file():
        raise CourseError(f"{private} is a git worktree or submodule, whose history (the solutions) lies in another "
                          f"folder the hub would not make private: start the hub from a plain clone")
    if hub_dir == private or private in hub_dir.parents:
        raise CourseError(f"the hub folder {hub_dir} lies inside {private}, which the hub makes unreadable to students "
                          f"(it holds the solutions): choose a --hub-dir outside it, such as /srv/jaxcourse-hub")
    if environment == private or private in environment.parents:
        raise CourseError(f"the hub runs from {environment}, inside {private}, which it makes unreadable to students "
                          f"(it holds the solutions): start it with `make hub`, which builds <hub-dir>/venv for it")


def make_private(private: Path, students: list[str]) -> None:
    """`private` (solutions, hidden tests, their history) closed to every other account, checked as each student."""
    try:
        os.chmod(private, stat.S_IMODE(private.stat().st_mode) & ~0o077)
    except OSError as exc:
        raise CourseError(f"cannot make {private} unreadable to students ({exc.strerror}): it holds the solutions; "
                          f"clone the course onto a local disk that root may change") from None
    for student in students:
        if subprocess.run(["runuser", "-u", student, "--", "test", "-x", str(private)]).returncode == 0:
            raise CourseError(f"{student} can still enter {private}, which holds the solutions and their history "
                              f"(an ACL, or a file system that ignores modes?): clone the course where modes hold")


@dataclass(frozen=True)
class HubPlan:
    roster: list[Member]
    hub_dir: Path
    origin: Course
    ip: str = "0.0.0.0"
    port: int = 8000
    ssl_cert: str = ""
    ssl_key: str = ""

    @property
    def course(self) -> Course:
        return Course.at(self.hub_dir / "course")

    @property
    def exchange(self) -> Path:
        return self.hub_dir / "exchange"

    @property
    def state(self) -> Path:
        """Root's only: the hub's database, cookie secret, settings, passwords and the proxy's pid file."""
        return self.hub_dir / "state"

    @property
    def student_config(self) -> Path:
        return self.hub_dir / "jupyter"

    def people(self, *roles: str) -> list[str]:
        return [m.username for m in self.roster if m.role in roles]

    def settings(self) -> dict:
        """What the hub's jupyterhub_config.py reads (hub.json)."""
        return {"bin": str(Path(sys.executable).parent), "course_id": COURSE_ID, "course_dir": str(self.course.root),
                "student_config": str(self.student_config),
                "grader": GRADER, "formgraders": FORMGRADERS, "students_group": STUDENTS,
                "students": self.people("student"), "tas": self.people("ta"), "instructors": self.people("instructor"),
                "ip": self.ip, "port": self.port, "ssl_cert": self.ssl_cert, "ssl_key": self.ssl_key,
                "hub_port": free_port(), "proxy_api_port": free_port(), "formgrader_port": free_port()}

    def write_student_config(self) -> None:
        """What every user's JupyterLab reads (JUPYTER_CONFIG_PATH): the course and its exchange for
        nbgrader's Assignments tab and Validate; no formgrader or assignment creator in it."""
        config = self.student_config
        (config / "labconfig").mkdir(parents=True, exist_ok=True)
        (config / "nbgrader_config.py").write_text(
            f"c = get_config()  # noqa: F821\nc.CourseDirectory.course_id = {COURSE_ID!r}\n"
            f"c.Exchange.root = {str(self.exchange)!r}\n"
            "c.ExchangeFactory.submit = 'jaxcourse.grading.exchange.PrivateSubmit'  # not nbgrader's 0777\n")
        (config / "jupyter_server_config.json").write_text(json.dumps({"ServerApp": {"jpserver_extensions": {
            "nbgrader.server_extensions.formgrader": False}}}, indent=1))
        # Nor JupyterLab's question about fetching Jupyter's news, which every new account would be asked.
        (config / "labconfig" / "page_config.json").write_text(json.dumps({"disabledExtensions": {
            "@jupyter/nbgrader:formgrader": True, "@jupyter/nbgrader:create-assignment": True,
            "@jupyterlab/apputils-extension:announcements": True}}, indent=1))

    def prepare(self) -> list[str]:
        """Everything the hub needs before it starts; returns the accounts created."""
        if os.geteuid() != 0:
            raise CourseError("run `jaxcourse hub` as root: it adds the roster's Unix accounts, and JupyterHub "
                              "starts each person's server as their own account")
        for tool in ("useradd", "chpasswd", "runuser"):
            if shutil.which(tool) is None:
                raise CourseError(f"{tool} is missing (Debian's 'passwd' and 'util-linux' packages)")
        private = repository(self.origin.root.resolve())
        check_outside(private, self.hub_dir, Path(sys.prefix).resolve())
        self.hub_dir.mkdir(parents=True, exist_ok=True)
        os.chmod(self.hub_dir, 0o755)  # users read the exchange and their config here; the rest is private
        owned_folder(self.state, "root", 0o700)
        for name in PRIVATE:
            if (self.hub_dir / name).exists() and not (self.state / name).exists():
                os.replace(self.hub_dir / name, self.state / name)
        if not exists(GRADER):
            run("useradd", "--system", "--create-home", "--home-dir", str(self.hub_dir / "grader"),
                "--shell", "/bin/bash", "--comment", f"nbgrader for {COURSE_ID}", GRADER)
        os.chmod(pwd.getpwnam(GRADER).pw_dir, 0o700)
        created = add_accounts(self.roster, self.state / "passwords.csv")
        make_private(private, self.people("student"))
        check_readable_by(GRADER, Path(sys.executable))
        if make_course(self.origin, self.course, self.exchange):
            print(f"course folder: {self.course.root} (a copy of {self.origin.root}, owned by {GRADER})")
        make_exchange(self.exchange)
        self.write_student_config()
        (self.state / "hub.json").write_text(json.dumps(self.settings(), indent=1))
        shutil.copy(TEMPLATE, self.state / "jupyterhub_config.py")
        os.close(os.open(self.state / "jupyterhub.sqlite", os.O_WRONLY | os.O_CREAT, 0o600))  # SQLite keeps its mode
        for name in PRIVATE:
            if (self.state / name).exists():
                os.chmod(self.state / name, 0o600)
        return created

    def command(self) -> list[str]:
        return [str(Path(sys.executable).parent / "jupyterhub"), "-f", str(self.state / "jupyterhub_config.py")]
