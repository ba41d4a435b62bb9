# Injected by the grader as the last cell: reports which JAX platform actually ran.
def _grader_receipt():
    import platform
    import jax
    import jaxlib
    from IPython.display import display

    devices = jax.devices()
    receipt = {
        "backend": jax.default_backend(),
        "device_kinds": sorted({d.device_kind for d in devices}),
        "device_count": len(devices),
        "process_index": jax.process_index(),
        "process_count": jax.process_count(),
        "jax": jax.__version__,
        "jaxlib": jaxlib.__version__,
        "python": platform.python_version(),
    }
    display({"application/vnd.jaxcourse.receipt+json": receipt}, raw=True)


_grader_receipt()
del _grader_receipt
