# replaces: practice-solution
# fails: practice-test
def requested_platform(environ=None):
    # Reads the variables in the wrong order: JAX_PLATFORMS overrides the course's expectation.
    if environ is None:
        environ = os.environ
    value = environ.get("JAX_PLATFORMS") or environ.get("COURSE_EXPECT_PLATFORM") or "cpu"
    name = value.split(",")[0].strip().lower()
    if name not in {"cpu", "gpu", "tpu"}:
        raise ValueError(f"unknown platform {name!r}")
    return name
