# Injected by the grader as the first cell of every graded run. Hidden tests call
# grader_check / grader_raises to export inert values; the grader compares them
# with the instructor's values outside this kernel, so nothing here decides a grade.
def _grader_setup():
    import base64
    import sys
    from IPython.display import display

    import numpy as np

    mime = "application/vnd.jaxcourse.check+json"
    # Exact types only: a subclass could answer == , float() or __array__ as it pleases.
    plain = {type(None), bool, int, float, complex, str, list, tuple, dict}
    numpy_scalars = set(np.sctypeDict.values())

    def unsupported(value, why=""):
        return {"kind": "unsupported", "type": why or f"{type(value).__module__}.{type(value).__qualname__}"}

    def jax_array_type():
        array = sys.modules.get("jax._src.array")
        return getattr(array, "ArrayImpl", None)

    def trimmed(spec):
        while spec and spec[-1] is None:  # P("data") and P("data", None) shard alike
            spec.pop()
        return spec

    def placement(value):
        """Where a jax.Array lives, as plain data: devices, commitment, shards and spec."""
        sharding = value.sharding
        spec = getattr(sharding, "spec", None)
        mesh = getattr(sharding, "mesh", None)
        shards = []
        for shard in value.addressable_shards:
            index = [list(part.indices(size)[:2]) for part, size in zip(shard.index, value.shape)]
            shards.append([int(shard.device.id), index])
        return {
            "devices": sorted(int(d.id) for d in value.devices()),
            "committed": bool(value.committed),
            "shards": sorted(shards),
            "spec": None if spec is None else trimmed([None if p is None else list(p) if isinstance(p, tuple)
                                                       else str(p) for p in spec]),
            "mesh": None if mesh is None else {str(k): int(v) for k, v in dict(mesh.shape).items()},
        }

    def encode(value, depth=0):
        if depth > 8:
            return unsupported(value, "nesting too deep")
        kind = type(value)
        if kind is type(None):
            return {"kind": "none"}
        if kind is str:
            return {"kind": "str", "value": value[:10000]}
        if kind is dict:
            return {"kind": "map", "items": {str(k): encode(v, depth + 1)
                                             for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}}
        if kind is list or kind is tuple:
            return {"kind": "seq", "items": [encode(v, depth + 1) for v in value]}
        extra = {}
        if kind is jax_array_type() and kind is not None:
            extra["placement"] = placement(value)
        elif not (kind in plain or kind is np.ndarray or kind in numpy_scalars
                  or (isinstance(value, np.generic) and kind.__module__ == "ml_dtypes")):
            return unsupported(value)
        array = np.asarray(value)
        if type(array) is not np.ndarray or array.dtype.hasobject or array.dtype.fields is not None:
            return unsupported(value)
        if not array.dtype.isnative:  # exported under its plain name ("float32", never ">f4")
            array = array.astype(array.dtype.newbyteorder("="))
        return {
            "kind": "array",
            "dtype": str(array.dtype),
            "shape": [int(n) for n in array.shape],
            "data": base64.b64encode(np.ascontiguousarray(array).tobytes()).decode("ascii"),
            **extra,
        }

    def emit(name, payload, options):
        display({mime: {"name": str(name), "value": payload, "options": options}}, raw=True)

    def grader_check(name, value, *, rtol=None, atol=None, check_dtype=True, check_placement=False):
        """Export `value` for comparison with the instructor's value of the same name.

        check_dtype="kind" accepts any dtype of the expected one's kind (any integer width, say).
        check_placement also compares where a jax.Array lives: its devices, whether it is
        committed, and how it is sharded.
        """
        try:
            payload = encode(value)
        except Exception as exc:  # an unexportable value fails its check, nothing more
            payload = unsupported(value, f"{type(exc).__name__}: {exc}"[:200])
        emit(name, payload, {"rtol": rtol, "atol": atol, "check_dtype": check_dtype,
                             "check_placement": check_placement})

    def qualified(cls):
        return f"{cls.__module__}.{cls.__qualname__}"

    def message_of(exc):
        try:
            text = str(exc)
        except Exception:
            return ""
        return text[:10000] if type(text) is str else ""

    def grader_raises(name, fn, *args, message_contains=(), **kwargs):
        """Export which exception fn(*args, **kwargs) raises, or that it raised none.

        message_contains: strings the exception's message must hold; with it the message is
        exported too, and the grader looks for them outside this kernel.
        """
        try:
            fn(*args, **kwargs)
        except Exception as exc:
            payload = {"kind": "raised", "type": qualified(type(exc))}
            if message_contains:
                payload["message"] = message_of(exc)
        else:
            payload = {"kind": "raised", "type": None}
        emit(name, payload, {"contains": [str(s) for s in message_contains]} if message_contains else {})

    return grader_check, grader_raises


grader_check, grader_raises = _grader_setup()
del _grader_setup
