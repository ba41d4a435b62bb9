# replaces: practice-solution
# fails: practice-test
def make_donating_step(step):
    # Donates argument 1, the batch: no output has its shape, so nothing is reused.
    return jax.jit(step, donate_argnums=1)
