"""Late penalties by nbgrader's own late-submission plugin, from the gradebook's due dates.

The policy is nbgrader configuration in the course's nbgrader_config.py, read as nbgrader
reads it: `c.LateSubmissionPlugin.penalty_method = "zero"`, or a plugin of your own with
`c.AssignLatePenalties.plugin_class = "mymodule.MyPlugin"` (a LateSubmissionPlugin subclass).
The due date is the lesson's in the gradebook (`nbgrader db assignment add LESSON --duedate=...`
or the formgrader); the submission time is the one record_grades gave the gradebook: the
exchange's, recorded at collect (grading/exchange.py), else the student's timestamp.txt.
"""
from __future__ import annotations

import logging

from nbgrader.api import Gradebook, MissingEntry
from nbgrader.preprocessors import AssignLatePenalties
from traitlets.config import Config
from traitlets.config.loader import ConfigFileNotFound, PyFileConfigLoader

from ..course import COURSE_ID, Course, CourseError

QUIET = logging.getLogger("jaxcourse.late")  # the plugin logs every call at info level
QUIET.setLevel(logging.ERROR)


def course_config(course: Course) -> Config:
    """The course's nbgrader_config.py as nbgrader loads it (its configure_nbgrader included)."""
    try:
        return PyFileConfigLoader("nbgrader_config.py", path=str(course.root)).load_config()
    except ConfigFileNotFound:
        return course.nbgrader_config()
    except Exception as exc:  # the instructor's own Python file
        raise CourseError(f"{course.root / 'nbgrader_config.py'} cannot be loaded: {exc}") from None


def assign_late_penalties(course: Course, lesson: str, students: list[str]) -> None:
    """Set each notebook's late_submission_penalty as nbgrader's AssignLatePenalties does after
    autograde: the plugin's penalty for a late submission (at most its score), none otherwise."""
    assigner = AssignLatePenalties(config=course_config(course), log=QUIET)
    assigner.init_plugin()
    with Gradebook(course.db_url, COURSE_ID) as gb:
        for student in students:
            try:
                submission = gb.find_submission(lesson, student)
            except MissingEntry:
                continue
            late = submission.total_seconds_late
            for notebook in submission.notebooks:
                penalty = None
                if late > 0:
                    penalty = assigner.plugin_inst.late_submission_penalty(student, notebook.score, late)
                    if penalty is not None:
                        penalty = assigner._check_late_penalty(notebook, penalty)  # nbgrader's own clamp
                notebook.late_submission_penalty = penalty
        gb.db.commit()
