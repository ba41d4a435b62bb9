# replaces: practice-dtype-solution
# fails: practice-dtype-test
import functools


def result_dtype(*operands):
    # Ignores weak typing: a Python scalar counts as a full int32/float32 array,
    # so int8 array + 3 -> int32 and float16 array + 2.0 -> float32.
    dtypes = [jnp.asarray(op).dtype for op in operands]
    return functools.reduce(jnp.promote_types, dtypes).name
