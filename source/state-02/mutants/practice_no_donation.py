# replaces: practice-solution
# fails: practice-test
def make_donating_step(step):
    # Compiles, but donates nothing: old and new state exist side by side.
    return jax.jit(step)
