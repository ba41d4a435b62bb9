"""The `jaxcourse` command: release, check-source, grade, demo, and lesson authoring and upkeep."""
from __future__ import annotations

import argparse
import os
import shutil
import sys
import time
import warnings
from collections import Counter
from importlib.metadata import PackageNotFoundError, version
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from .kernel import no_format_checkers  # noqa: F401  (an entry point: before anything imports nbformat)

import nbformat

from .authoring import fabricate
from .authoring.scaffold import new_lesson
from .course import PLATFORMS, Course, CourseError
from .grading.expected import trusted_run
from .grading.options import Options, Progress
from .grading.score import Status
from .grading.start import GradingStart
from .hub import GRADER, HubPlan, read_roster
from .inprocess import add_options, check_in_process, compare_exports
from .run.backends import BACKENDS, GRADING_BACKENDS
from .run.bubblewrap import SandboxUnavailable, require_sandbox
from .run.execute import BackendUnavailable, PlatformUnavailable, preflight
from .run.limits import Limits

if TYPE_CHECKING:
    from .grading.record import LedgerEntry

# What imports nbgrader is imported by the command that uses it: `jaxcourse grade` starts the
# lesson's solution run first (grading/start.py), and the rest of the grader loads beside it.

DEMO_MARKER = ".jaxcourse-demo"


def _course(args) -> Course:
    return Course.at(args.course_dir)


class LiveProgress(Progress):
    """A rich progress bar on stderr: done/total, elapsed, ETA and counts of cell statuses."""

    def start(self, lesson: str, total: int, kept: int = 0) -> None:
        from rich.console import Console
        from rich import progress as bar

        self.counts: Counter[str] = Counter()
        self.bar = bar.Progress(bar.TextColumn("{task.description}"), bar.BarColumn(), bar.MofNCompleteColumn(),
                                bar.TimeElapsedColumn(), bar.TextColumn("ETA"), bar.TimeRemainingColumn(),
                                bar.TextColumn("{task.fields[statuses]}"), console=Console(stderr=True))
        self.task = self.bar.add_task(f"grading {lesson}", total=total - kept, statuses="")
        self.bar.start()

    def advance(self, entry: LedgerEntry) -> None:
        self.counts.update(row["status"] for row in entry.rows)
        statuses = "cells: " + ", ".join(f"{status} {n}" for status, n in self.counts.most_common())
        self.bar.update(self.task, advance=1, statuses=statuses)

    def stop(self) -> None:
        self.bar.stop()


def _options(args) -> Options:
    limits = Limits(cell_timeout=args.cell_timeout, notebook_timeout=args.notebook_timeout)
    quiet = getattr(args, "quiet", True)
    cold = getattr(args, "cold", False)
    return Options(platform=args.platform, limits=limits, sandbox=not getattr(args, "unsafe_no_sandbox", False),
                   ip_sockets=not getattr(args, "no_ip_sockets", False),
                   workers=getattr(args, "workers", None), warm=not cold, preimport=() if cold else Options.preimport,
                   compilation_cache=not getattr(args, "no_compilation_cache", False),
                   backend=getattr(args, "backend", "local"), ray_address=getattr(args, "ray_address", None),
                   force=getattr(args, "force", False), students=tuple(getattr(args, "student", None) or ()),
                   log=(lambda *_: None) if quiet else print, progress=Progress() if quiet else LiveProgress())


def _badge_note(course: Course, target: Path | None = None) -> None:
    from .authoring.publish import badge_note

    note = badge_note(course, target)
    if note:
        print(note)


def cmd_release(args) -> int:
    from .authoring.release import release

    course = _course(args)
    for path in release(course, args.lessons):
        print(f"released {path}")
    _badge_note(course)
    return 0


def cmd_publish(args) -> int:
    from .authoring.publish import publish

    course = _course(args)
    written = publish(course, Path(args.target))
    print(f"published {len(written)} files to {Path(args.target).resolve()}: no solution, hidden test or mutant in them")
    _badge_note(course, Path(args.target).resolve())
    return 0


def cmd_check_source(args) -> int:
    if args.in_process:
        return check_in_process(args)
    if args.report or args.skip_done or args.shard or args.examples:
        raise CourseError("--report, --skip-done, --shard and --examples go with --in-process")
    course, options = _course(args), _options(args)
    if options.sandbox and options.backend == "local":
        require_sandbox()
    backend = BACKENDS[options.backend]
    backend.prepare(options.ray_address)
    backend.preflight(options.platform)
    failed = 0
    for lesson in course.select(args.lessons):
        start = time.monotonic()
        try:
            result = trusted_run(course, lesson, options)
        except CourseError as exc:
            failed += 1
            print(f"FAIL {lesson}: {exc}")
            continue
        print(f"ok   {lesson}: {len(result['checks'])} graded cells pass "
              f"({time.monotonic() - start:.1f}s on {result['receipt']['backend']})")
    return 1 if failed else 0


def cmd_grade(args) -> int:
    course, options = _course(args), _options(args)
    if not options.sandbox:
        print("WARNING: grading without a sandbox; submissions run with your rights", file=sys.stderr)
    begun = GradingStart(course, args.lesson, options)
    from .grading.grade import grade_lesson  # nbgrader: loads while the solution's sandbox boots

    summary = grade_lesson(course, args.lesson, options, begun)
    print(summary.table())
    if summary.change_report():
        print(summary.change_report())
    print(summary.speed())
    print(f"CSV: {summary.csv_path}\nautograded: {course.autograded}\n"
          f"feedback for students: `jaxcourse feedback {args.lesson}` writes it to {course.feedback}")
    return _problems(summary)


def cmd_feedback(args) -> int:
    from .grading.report import write_lesson_feedback

    course = _course(args)
    course.lesson_notebook(args.lesson)  # a mistyped id gets the same error as in every command
    notes: list[str] = []
    written, skipped = write_lesson_feedback(course, args.lesson, notes)
    for reason in skipped:
        print(f"skipped {reason}")
    for note in notes:
        print(f"note: {note}")
    print(f"wrote {len(written)} feedback page(s) under {course.feedback / '<student>' / args.lesson}, with the "
          f"files `nbgrader release_feedback {args.lesson}` reads")
    return 0


def _problems(summary) -> int:
    """Exit status: 0, or 1 when a grade cannot be trusted as final."""
    status = 0
    if summary.platform_mismatch:
        print(f"ERROR: some submissions did not run on the requested platform (status {Status.PLATFORM_MISMATCH})",
              file=sys.stderr)
        status = 1
    if summary.internal_errors:
        print(f"ERROR: {summary.internal_errors} submission(s) could not be graded (status {Status.INTERNAL_ERROR}); "
              f"they are retried on the next run. Tracebacks: {summary.error_log}", file=sys.stderr)
        status = 1
    return status


def cmd_demo(args) -> int:
    """Release lessons into a scratch course, fabricate three students for each, grade them: the lessons
    named, else every lesson with --all, else course.toml's [demo] lessons (every lesson when it names none)."""
    from .authoring.release import release
    from .grading.analytics import write_report
    from .grading.grade import grade_lesson
    from .grading.report import write_lesson_feedback

    course, origin = _course(args), Course.at(args.source_from)
    if args.all and args.lessons:
        raise CourseError("name lessons or give --all, not both")
    chosen = args.lessons or ([] if args.all else list(origin.settings().demo))
    if course.root.exists():
        if not (course.root / DEMO_MARKER).exists():
            raise CourseError(f"{course.root} exists and is not a demo course folder; choose another --course-dir")
        shutil.rmtree(course.root)
    course.root.mkdir(parents=True)
    (course.root / DEMO_MARKER).write_text("created by `jaxcourse demo`; safe to delete\n")
    shutil.copytree(origin.source, course.source)
    lessons = course.select(chosen)
    release(course, lessons)
    for lesson in lessons:
        release_nb = nbformat.read(course.release / lesson / f"{lesson}.ipynb", as_version=4)
        fabricate.submit(course, "student-correct", lesson, fabricate.solved(course, lesson, release_nb))
        first_mutant = fabricate.mutants(course, lesson)[:1]
        if first_mutant:
            fabricate.submit(course, "student-one-wrong", lesson,
                             fabricate.solved(course, lesson, release_nb, first_mutant[0]))
        fabricate.submit(course, "student-untouched", lesson, release_nb)
    options = _options(args)
    status = 0
    for lesson in lessons:
        print(f"\n== {lesson}")
        summary = grade_lesson(course, lesson, options)
        print(summary.table())
        print(summary.speed())
        status |= _problems(summary)
        pages, _ = write_lesson_feedback(course, lesson)
        wrong = [page for page in pages if "student-one-wrong" in page.parts]
        if wrong:
            print(f"a wrong student's feedback page: {wrong[0]}")
        index, _ = write_report(course, lesson)
        print(f"class report: {index}")
    print(f"\nautograded notebooks: {course.autograded}\nfeedback (HTML): {course.feedback}\n"
          f"grades (CSV): {course.grades}\nclass reports: {course.root / 'reports'}\ngradebook: {course.gradebook}")
    return status


def cmd_report(args) -> int:
    from .grading.analytics import write_report

    index, text = write_report(_course(args), args.lesson)
    print(text)
    print(f"report: {index}")
    return 0


def cmd_clean_source(args) -> int:
    from .authoring.lessonfile import ClearOutputs

    course = _course(args)
    for lesson in course.select(args.lessons):
        path = course.lesson_notebook(lesson)
        nb = nbformat.read(path, as_version=4)
        nb, _ = ClearOutputs().preprocess(nb, {})
        nbformat.write(nb, path)
        print(f"cleaned {path}")
    return 0


def cmd_record_figures(args) -> int:
    from .authoring.lessonfile import ClearOutputs, write_recorded

    course, options = _course(args), replace(_options(args), draw_figures=True)
    for lesson in course.select(args.lessons):
        path = course.lesson_notebook(lesson)
        executed = trusted_run(course, lesson, options)["notebook"]
        print(f"recorded figure and example outputs in {write_recorded(path.parent, executed)}")
        nb, _ = ClearOutputs().preprocess(nbformat.read(path, as_version=4), {})
        nbformat.write(nb, path)
    return 0


def cmd_new_lesson(args) -> int:
    course = _course(args)
    for path in new_lesson(course, args.lesson, args.phase):
        print(f"wrote {path}")
    print(f"next: edit the notebook, add mutants, then `jaxcourse record-figures {args.lesson}`, "
          f"`jaxcourse release {args.lesson}` and `jaxcourse check-lesson {args.lesson}` (docs/authoring.md)")
    return 0


def cmd_check_lesson(args) -> int:
    from .authoring.check import check_lesson

    course, options = _course(args), _options(args)
    preflight(options.platform)
    failed = 0
    for lesson in course.select(args.lessons):
        print(f"== {lesson}")
        if not check_lesson(course, lesson, options, lambda step: print(
                f"  {'skip' if step.skipped else 'ok  ' if step.ok else 'FAIL'} {step.name}: {step.detail}"),
                quick=args.quick):
            failed += 1
    return 1 if failed else 0


def cmd_hub(args) -> int:
    if bool(args.ssl_cert) != bool(args.ssl_key):
        raise CourseError("--ssl-cert and --ssl-key go together")
    plan = HubPlan(read_roster(Path(args.roster)), Path(args.hub_dir).resolve(), _course(args), args.ip, args.port,
                   args.ssl_cert or "", args.ssl_key or "")
    created = plan.prepare()
    print(f"accounts created: {', '.join(created) or 'none'}"
          + (f" (first passwords in {plan.state / 'passwords.csv'}, readable by root only)" if created else ""))
    print(f"exchange: {plan.exchange}\ncourse folder (the formgrader's, owned by {GRADER}): {plan.course.root}")
    if not args.ssl_cert and args.ip not in ("127.0.0.1", "localhost"):
        print("WARNING: no --ssl-cert: passwords cross the network in clear; put the hub behind TLS", file=sys.stderr)
    sys.stdout.flush()
    os.chdir(plan.state)  # whatever JupyterHub writes where it runs stays root's
    os.execv(plan.command()[0], plan.command())


def _version() -> str:
    try:
        return version("jaxcourse")
    except PackageNotFoundError:  # run from a checkout that pip did not install
        return "(not installed)"


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="jaxcourse", description=__doc__)
    top.add_argument("--version", action="version", version=f"%(prog)s {_version()}",
                     help="print the version of jaxcourse and exit")
    sub = top.add_subparsers(dest="command", required=True)

    def command(name, func, help_text, lessons="*", execution=False):
        p = sub.add_parser(name, help=help_text, description=help_text)
        p.add_argument("--course-dir", default=".", metavar="DIR", help="course folder (default: the current directory)")
        if lessons == "*":
            p.add_argument("lessons", nargs="*", metavar="LESSON", help="lesson ids (default: all)")
        elif lessons == "1":
            p.add_argument("lesson", metavar="LESSON", help="a lesson id: the name of its folder under source/")
        if execution:
            p.add_argument("--platform", choices=PLATFORMS, default="cpu",
                           help="where notebooks run: JAX_PLATFORMS in every sandbox, checked by a device receipt "
                           "(default cpu; never a fallback to another)")
            p.add_argument("--cell-timeout", type=int, default=Limits.cell_timeout, metavar="S",
                           help=f"seconds per cell (default {Limits.cell_timeout}, room for JIT compilation)")
            p.add_argument("--notebook-timeout", type=int, default=Limits.notebook_timeout, metavar="S",
                           help=f"seconds per notebook, all cells together (default {Limits.notebook_timeout})")
            p.add_argument("--no-ip-sockets", action="store_true",
                           help="refuse socket(AF_INET/AF_INET6) in every sandbox, as a TPU host does: "
                           "rehearse such a host here (a lesson that talks over loopback fails)")
        p.set_defaults(func=func)
        return p

    command("release", cmd_release, "generate release/ with nbgrader and check it leaks nothing")
    published = command("publish", cmd_publish, "release, then write the course as students get it (no solutions) "
                        "to TARGET, for a public repository or branch", lessons=None)
    published.add_argument("target", metavar="TARGET", help="a folder outside the course: empty, new, or an earlier publish")
    source = command("check-source", cmd_check_source, "run instructor notebooks through the grader; fail unless "
                     "every graded cell passes", execution=True)
    source.add_argument("--in-process", action="store_true",
                        help="no kernel and no sandbox: every lesson (default: all that declare --platform) and "
                        "its mutants in this one process, trusted notebooks only (python -m jaxcourse.inprocess)")
    add_options(source)
    source.add_argument("--backend", choices=tuple(BACKENDS), default="local",
                        help="where each solution runs: local sandboxes, a Ray cluster, or in-process (this "
                        "process, kernel-free, one lesson after another)")
    source.add_argument("--ray-address", metavar="ADDR", help="with --backend ray: the cluster to join "
                        "(default: start a local one)")
    compared = command("compare-exports", compare_exports, "list the hidden checks whose values in report ACTUAL "
                       "differ from report EXPECTED beyond the instructor's tolerance (check-source --in-process "
                       "--report)", lessons=None)
    compared.add_argument("expected", metavar="EXPECTED", help="the report whose values count as right (e.g. a CPU run)")
    compared.add_argument("actual", metavar="ACTUAL", help="the report judged against it (e.g. a TPU run)")
    grade = command("grade", cmd_grade, "grade submitted/<student>/LESSON/ into autograded/, gradebook.db and grades/LESSON.csv", lessons="1", execution=True)
    for p in (grade, source):
        p.add_argument("--unsafe-no-sandbox", action="store_true",
                       help="run notebooks without bubblewrap, where it cannot start (trusted notebooks only)")
    grade.add_argument("--force", action="store_true",
                       help="grade again even the submissions unchanged since the last run (hand grades are kept)")
    grade.add_argument("--student", action="append", metavar="ID",
                       help="grade only this student's submission (repeat for more); the others keep their last grade")
    demo = command("demo", cmd_demo, "release, fabricate three students per lesson, grade and show the results "
                   "(default: course.toml's [demo] lessons)", execution=True)
    demo.add_argument("--source-from", default=".", help="course folder whose source/ the demo copies")
    demo.add_argument("--all", action="store_true", help="every lesson of the course")
    for p in (grade, demo):
        p.add_argument("--workers", type=int, metavar="N",
                       help="submissions graded at once (default: usable cores on cpu, chips on tpu, GPUs on gpu)")
        p.add_argument("--quiet", action="store_true", help="no progress display; print only the results")
        p.add_argument("--cold", action="store_true",
                       help="start each sandbox only when its submission is due, with nothing imported ahead")
        p.add_argument("--no-compilation-cache", action="store_true",
                       help="do not share the programs compiled from the lesson's visible code (read-only) with submissions")
        p.add_argument("--backend", choices=GRADING_BACKENDS, default="local",
                       help="ray: run each notebook as a task on a Ray cluster (pip install -e '.[ray]')")
        p.add_argument("--ray-address", metavar="ADDR", help="cluster to join (default: start a local one)")
    command("feedback", cmd_feedback, "write feedback/<student>/LESSON/*.html for the graded submissions "
            "(the score summary, then the student's own notebook)", lessons="1")
    command("report", cmd_report, "write reports/LESSON/: per-question chart, score histogram, common failures",
            lessons="1")
    command("clean-source", cmd_clean_source, "strip outputs and execution counts from source notebooks")
    new = command("new-lesson", cmd_new_lesson, "scaffold source/LESSON/ in the course's anatomy", lessons="1")
    new.add_argument("--phase", type=int, default=1, help="the course phase it belongs to")
    checked = command("check-lesson", cmd_check_lesson, "everything a lesson must pass: a clean source, hidden "
                      "tests that only export, solution, release, drift, each mutant, portability", execution=True)
    checked.add_argument("--quick", action="store_true",
                         help="skip the slowest check (the release in a clean venv at the pins), "
                         "while you iterate on hidden tests and mutants")
    hub = command("hub", cmd_hub, "start a class hub on this machine, as root: JupyterHub for the roster's Unix "
                  "accounts, nbgrader's exchange, the formgrader as a service (docs/hub.md)",
                  lessons=None)
    hub.add_argument("--roster", required=True, metavar="CSV", help="columns username,role,first_name,last_name,email; "
                     "role is student, ta or instructor")
    hub.add_argument("--hub-dir", default="/srv/jaxcourse-hub", metavar="DIR",
                     help="the hub's folder: the exchange, the course folder, and state/ (its database, root's only) "
                          "(default /srv/jaxcourse-hub)")
    hub.add_argument("--ip", default="0.0.0.0", help="address to serve on (default all)")
    hub.add_argument("--port", type=int, default=8000, help="port to serve on (default 8000)")
    hub.add_argument("--ssl-cert", metavar="FILE", help="TLS certificate (with --ssl-key): serve https")
    hub.add_argument("--ssl-key", metavar="FILE", help="TLS private key")
    command("record-figures", cmd_record_figures, "re-run source notebooks and record the outputs of figure and example cells", execution=True)
    return top


def main(argv: list[str] | None = None) -> int:
    # nbgrader 0.9.6 triggers SQLAlchemy 2 autoflush warnings that say nothing about the grades
    # (matched by their text: importing sqlalchemy for the class would cost every command 0.2 s).
    warnings.filterwarnings("ignore", message=r"Object of type <\w+> not in session", module=r"nbgrader\.")
    args = parser().parse_args(argv)
    try:
        return args.func(args)
    except (CourseError, PlatformUnavailable, SandboxUnavailable, BackendUnavailable) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
