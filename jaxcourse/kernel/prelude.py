# Injected by the grader as the first cell of every graded run. Hidden tests call
# grader_check / grader_raises to export inert values; the grader compares them
# with the instructor's values outside this kernel, so nothing here decides a grade.
def _grader_setup():
    import base64
    import numbers
    from IPython.display import display

    mime = "application/vnd.jaxcourse.check+json"

    def encode(value, depth=0):
        if depth > 8:
            return {"kind": "unsupported", "type": "nesting too deep"}
        if value is None:
            return {"kind": "none"}
        if isinstance(value, str):
            return {"kind": "str", "value": value[:10000]}
        if isinstance(value, dict):
            return {"kind": "map", "items": {str(k): encode(v, depth + 1) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}}
        if isinstance(value, (list, tuple)):
            return {"kind": "seq", "items": [encode(v, depth + 1) for v in value]}
        import numpy as np
        if not isinstance(value, (numbers.Number, np.ndarray, np.generic)) and not hasattr(value, "__jax_array__") and type(value).__module__.split(".")[0] not in ("jax", "jaxlib"):
            return {"kind": "unsupported", "type": type(value).__name__}
        array = np.asarray(value)
        if array.dtype == object:
            return {"kind": "unsupported", "type": type(value).__name__}
        return {
            "kind": "array",
            "dtype": str(array.dtype),
            "shape": list(array.shape),
            "data": base64.b64encode(array.tobytes(order="C")).decode("ascii"),
        }

    def emit(name, payload, options):
        display({mime: {"name": str(name), "value": payload, "options": options}}, raw=True)

    def grader_check(name, value, *, rtol=None, atol=None, check_dtype=True):
        """Export `value` for comparison with the instructor's value of the same name."""
        try:
            payload = encode(value)
        except Exception as exc:  # an unexportable value fails its check, nothing more
            payload = {"kind": "unsupported", "type": f"{type(exc).__name__}: {exc}"}
        emit(name, payload, {"rtol": rtol, "atol": atol, "check_dtype": check_dtype})

    def grader_raises(name, fn, *args, **kwargs):
        """Export which exception fn(*args, **kwargs) raises, or that it raised none."""
        try:
            fn(*args, **kwargs)
        except Exception as exc:
            payload = {"kind": "raised", "type": type(exc).__name__,
                       "mro": [cls.__name__ for cls in type(exc).__mro__]}
        else:
            payload = {"kind": "raised", "type": None, "mro": []}
        emit(name, payload, {})

    return grader_check, grader_raises


grader_check, grader_raises = _grader_setup()
del _grader_setup
