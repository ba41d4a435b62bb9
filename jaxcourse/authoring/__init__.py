"""Writing and publishing lessons: what an instructor runs before any student does.

Owns the lesson scaffold (`scaffold`), the checks a lesson must pass (`check`, with the mutation
check in `mutation`), the release and its companions (`release`, `artefacts`, `lessonfile`), the
student edition (`publish`), and fabricated submissions (`fabricate`).

May import: `jaxcourse.grading`, `jaxcourse.run`, `jaxcourse.course`, nbgrader.
"""
