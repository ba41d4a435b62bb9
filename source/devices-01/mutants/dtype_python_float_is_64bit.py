# replaces: practice-dtype-solution
# fails: practice-dtype-test
import functools


def result_dtype(*operands):
    # Treats a Python float as float64 (and int as int64): float32 array + 0.1 -> float64.
    dtypes = [op.dtype if hasattr(op, "dtype") else np.dtype(type(op)) for op in operands]
    return functools.reduce(jnp.promote_types, dtypes).name
