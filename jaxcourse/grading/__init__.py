"""Grading submissions: collect → sanitize → (run) → score → record → report.

Owns the stages (`collect`, `sanitize`, `score`, `record` with `late`, `report` with
`htmlpage`), the pipeline that wires them (`grade`, from a command's `options`), the trusted
runs of the instructor's notebooks (`trusted`) and the expected values they leave (`expected`),
nbgrader's seams (`seams`) and the class reports (`analytics`).

May import: `jaxcourse.run`, `jaxcourse.course`, nbgrader. Never `jaxcourse.authoring`.
"""
