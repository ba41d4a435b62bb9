# replaces: practice-solution
# fails: practice-test
def requested_platform(environ=None):
    # environ.get(name, default) keeps an empty COURSE_EXPECT_PLATFORM="" instead of falling back.
    if environ is None:
        environ = os.environ
    value = environ.get("COURSE_EXPECT_PLATFORM", environ.get("JAX_PLATFORMS", "cpu"))
    name = value.split(",")[0].strip().lower()
    if name not in {"cpu", "gpu", "tpu"}:
        raise ValueError(f"unknown platform {name!r}")
    return name
