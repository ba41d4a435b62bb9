"""What one command asks of the grader: `Options`. The run layer is given only their
`run_settings`; the log, the progress display and the cluster address stay with the caller."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable

from ..course import Course
from ..run.execute import RunSettings
from ..run.limits import Limits
from .trusted import lesson_env

if TYPE_CHECKING:
    from .record import LedgerEntry

# What a warm kernel imports before its notebook arrives: JAX's heavy dependencies, but not
# jax itself, which reads JAX_* variables at import that a lesson may still set (welcome-cpu
# sets JAX_NUM_CPU_DEVICES before `import jax`).
PREIMPORT = ("numpy", "ml_dtypes", "opt_einsum", "jaxlib.xla_client")  # the last loads jaxlib's compiled extension


@dataclass
class Options:
    """One command's choices: how notebooks run (`run_settings`), which backend runs them and
    where, what to grade, and what the user sees (log, progress), which stays in this layer."""
    platform: str = "cpu"
    limits: Limits = field(default_factory=Limits)
    sandbox: bool = True
    workers: int | None = None   # None: the platform's default (cores, chips or GPUs)
    warm: bool = True            # start each worker's next sandbox while it grades
    preimport: tuple[str, ...] = PREIMPORT
    compilation_cache: bool = True
    draw_figures: bool = False   # True to record figures; graded runs never look at them
    ip_sockets: bool = True      # False: refuse IP sockets in every sandbox, as a TPU host does
    backend: str = "local"       # or "ray"
    ray_address: str | None = None
    force: bool = False          # grade again even what is unchanged since the last run
    students: tuple[str, ...] = ()  # grade only these (the others keep their last grade)
    log: Callable[[str], object] = print
    progress: "Progress" = field(default_factory=lambda: Progress())

    def run_settings(self, course: Course, lesson: str) -> RunSettings:
        """How `lesson`'s notebooks run: all the run layer is given of these options."""
        return RunSettings(self.platform, self.limits, self.sandbox, self.preimport, self.draw_figures, self.warm,
                           tuple(sorted(lesson_env(course, lesson, self.platform).items())), self.ip_sockets)


class Progress:
    """Told of each graded submission; the command line shows a live bar, tests show nothing."""

    def start(self, lesson: str, total: int, kept: int = 0) -> None:
        pass

    def advance(self, entry: LedgerEntry) -> None:
        pass

    def stop(self) -> None:
        pass
