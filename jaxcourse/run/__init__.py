"""How one notebook runs: the run layer.

Owns the platform table (`platforms`), the single-use sandbox (`execute`, built from
`bubblewrap`, `limits`, `runner`, `supervise` and `workdirs`), the
frozen `RunSettings` that specify every sandbox, the `Backend` protocol and its registry
(`backends`: local, Ray in `ray_backend`, in-process in `kernelfree`), and the file reads and
writes that trust nothing a sandbox left (`safefs`). The code that runs inside the sandbox is
`jaxcourse/kernel/`.

May import: only its own modules (and the kernel's files, by path). Nothing here imports
nbgrader, the course folder or the grading and authoring packages.
"""
