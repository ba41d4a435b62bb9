"""Grades for an LMS, as nbgrader export plugins (`nbgrader export --exporter=...`).

    nbgrader export --exporter=jaxcourse.export.CanvasExport   # grades/canvas.csv, Canvas's gradebook import
    nbgrader export --exporter=jaxcourse.export.LmsExport      # grades/lms.csv, one row a student

Both read nbgrader's gradebook, so they carry what `nbgrader export` does: hand grades from the
formgrader, and each lesson's score after its late penalty (nbgrader's `max(0, score - penalty)`).
A lesson a student has not submitted is an empty cell, which an LMS leaves ungraded (nbgrader's
own CSV writes 0). `--to FILE`, `--assignment` and `--student` work as for nbgrader's CSV.
"""
from __future__ import annotations

import csv
import io
from pathlib import Path

from nbgrader.api import Gradebook, MissingEntry
from nbgrader.plugins import ExportPlugin

from .course import Course
from .grading.report import spreadsheet_safe
from .run.safefs import atomic_write

CANVAS_IDENTITY = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]


def number(value: float) -> str:
    return f"{round(value, 4):g}"


class CourseExport(ExportPlugin):
    """What both files share: lessons in course order, one score per student and lesson."""

    default_name = ""

    def destination(self) -> Path:
        if self.to:
            return Path(self.to)
        return Path(self.parent.coursedir.root or ".") / "grades" / self.default_name

    def lessons(self, gradebook: Gradebook) -> list:
        order = {lesson: place for place, lesson in enumerate(Course.at(self.parent.coursedir.root).lessons())}
        chosen = [a for a in gradebook.assignments if not self.assignment or a.name in map(str, self.assignment)]
        return sorted(chosen, key=lambda a: (order.get(a.name, len(order)), a.name))

    def students(self, gradebook: Gradebook) -> list:
        return sorted((s for s in gradebook.students if not self.student or s.id in map(str, self.student)),
                      key=lambda s: s.id)

    @staticmethod
    def score(gradebook: Gradebook, lesson: str, student: str) -> str:
        try:
            submission = gradebook.find_submission(lesson, student)
        except MissingEntry:
            return ""
        return number(max(0.0, submission.score - submission.late_submission_penalty))

    def rows(self, gradebook: Gradebook) -> list[list[str]]:
        raise NotImplementedError

    def export(self, gradebook: Gradebook) -> None:
        buffer = io.StringIO()
        csv.writer(buffer, lineterminator="\n").writerows(self.rows(gradebook))
        path = self.destination()
        atomic_write(path, buffer.getvalue())
        self.log.info("Exported grades to %s", path)


class CanvasExport(CourseExport):
    """Canvas's gradebook import (Grades → Import): its identity columns, a "Points Possible" row,
    and one column per lesson, named by the lesson id, which Canvas adds as a new assignment the
    first time. Students are matched by SIS Login ID, the nbgrader student id."""

    default_name = "canvas.csv"

    def rows(self, gradebook: Gradebook) -> list[list[str]]:
        lessons = self.lessons(gradebook)
        rows = [CANVAS_IDENTITY + [a.name for a in lessons],
                ["    Points Possible", "", "", "", ""] + [number(a.max_score) for a in lessons]]
        for student in self.students(gradebook):
            name = ", ".join(part for part in (student.last_name, student.first_name) if part) or student.id
            rows.append([spreadsheet_safe(name), "", "", spreadsheet_safe(student.id), ""]
                        + [self.score(gradebook, a.name, student.id) for a in lessons])
        return rows


class LmsExport(CourseExport):
    """A plain table most LMS gradebooks import (Moodle, Blackboard, Brightspace map its columns):
    one row a student, one column a lesson, then the total and its maximum."""

    default_name = "lms.csv"

    def rows(self, gradebook: Gradebook) -> list[list[str]]:
        lessons = self.lessons(gradebook)
        rows = [["student_id", "last_name", "first_name", "email"] + [a.name for a in lessons]
                + ["total", "max_total"]]
        most = sum(a.max_score for a in lessons)
        for student in self.students(gradebook):
            scores = [self.score(gradebook, a.name, student.id) for a in lessons]
            rows.append([spreadsheet_safe(value or "") for value in (student.id, student.last_name,
                                                                     student.first_name, student.email)]
                        + scores + [number(sum(float(s) for s in scores if s)), number(most)])
        return rows
