# replaces: practice-solution
# fails: practice-test
def requested_platform(environ=None):
    # Treats a priority list such as "tpu,cpu" as one platform name, and rejects it.
    if environ is None:
        environ = os.environ
    name = (environ.get("COURSE_EXPECT_PLATFORM") or environ.get("JAX_PLATFORMS") or "cpu").strip().lower()
    if name not in {"cpu", "gpu", "tpu"}:
        raise ValueError(f"unknown platform {name!r}")
    return name
