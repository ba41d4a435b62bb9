# replaces: practice-solution
# fails: practice-test
def compile_once(fn, example):
    # "Warms up" jax.jit by calling it on the example: fails for a ShapeDtypeStruct, and
    # the result still accepts any other shape.
    jitted = jax.jit(fn)
    jitted(example)
    return jitted
