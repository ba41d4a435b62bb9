# replaces: practice-solution
# fails: practice-test
def compile_once(fn, example):
    # Returns a jitted function: same values, but another shape silently compiles again.
    return jax.jit(fn)
