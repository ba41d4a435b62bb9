"""nbgrader's own commands made safe for this course, through its configuration seams.

`configure_nbgrader` (course.py) names these classes, so `nbgrader autograde` and the
formgrader's Autograde button refuse with a sentence, and `nbgrader generate_feedback` and the
formgrader's feedback buttons render only notebooks that `jaxcourse grade` wrote without
hidden tests.
"""
from __future__ import annotations

from nbconvert.exporters import NotebookExporter
from nbconvert.exporters.exporter import ResourcesDict
from nbformat.notebooknode import NotebookNode
from nbgrader.converters.base import NbGraderException
from nbgrader.preprocessors import NbGraderPreprocessor

# The mark `jaxcourse grade` leaves on every notebook it writes to autograded/.
REVIEWED = "hidden tests removed"


def refusal(lesson: str) -> str:
    lesson = lesson if lesson and "*" not in lesson else "LESSON"
    return ("nbgrader autograde is turned off in this course: it would run students' code without a sandbox, "
            "and it cannot score the course's hidden checks (a correct answer would get 0). "
            f"Grade with `jaxcourse grade {lesson}` (--student ID for one student, --force to grade again): "
            "it fills the same gradebook and autograded/ folder.")


class RefuseAutograde(NotebookExporter):
    """Autograde's exporter (Autograde.exporter_class). nbgrader builds it before it touches any
    folder or gradebook row, so refusing here changes nothing."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        coursedir = getattr(self.parent, "coursedir", None)
        message = refusal(getattr(coursedir, "assignment_id", ""))
        self.log.error(message)
        raise NbGraderException(message)


class RequireHiddenTestsRemoved(NbGraderPreprocessor):
    """First of GenerateFeedback's preprocessors: a notebook in autograded/ that `jaxcourse grade`
    did not write (an older version's, or one copied in by hand) may hold hidden tests and the
    outputs of a run that saw them, so no feedback page is made from it."""

    def preprocess(self, nb: NotebookNode, resources: ResourcesDict):
        if nb.metadata.get("jaxcourse", {}).get("hidden_tests") != REVIEWED:
            where = resources.get("nbgrader", {})
            message = (f"refusing to make feedback from autograded/{where.get('student')}/{where.get('assignment')}/"
                       f"{where.get('notebook')}.ipynb: it was not written by this version of `jaxcourse grade`, "
                       "so it may show hidden tests. Run `jaxcourse grade "
                       f"{where.get('assignment')} --force` first, or use `jaxcourse feedback`.")
            self.log.error(message)
            raise NbGraderException(message)
        return nb, resources
