# replaces: practice-solution
# fails: practice-test
def make_donating_step(step):
    # Donates the state and the batch: the caller loses a batch it may still need.
    return jax.jit(step, donate_argnums=(0, 1))
