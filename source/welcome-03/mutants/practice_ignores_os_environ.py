# replaces: practice-solution
# fails: practice-test
def requested_platform(environ=None):
    # Reads an empty mapping when called without one, instead of os.environ: always "cpu" then.
    environ = environ or {}
    value = environ.get("COURSE_EXPECT_PLATFORM") or environ.get("JAX_PLATFORMS") or "cpu"
    name = value.split(",")[0].strip().lower() or "cpu"
    if name not in {"cpu", "gpu", "tpu"}:
        raise ValueError(f"unknown platform {name!r}: expected 'cpu', 'gpu' or 'tpu'")
    return name
