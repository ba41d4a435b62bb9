# replaces: practice-solution
# fails: practice-test
def compile_once(fn, example):
    # Lowers and compiles for whatever arrives, on every call: never refuses a shape.
    def run(x):
        return jax.jit(fn).lower(x).compile()(x)
    return run
