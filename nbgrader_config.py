# nbgrader reads this file; the settings live in jaxcourse.course.
from jaxcourse.course import configure_nbgrader

configure_nbgrader(get_config())  # noqa: F821
