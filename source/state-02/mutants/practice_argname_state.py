# replaces: practice-solution
# fails: practice-test
def make_donating_step(step):
    # Donates by the name of sgd_step's parameter: a step whose first parameter has
    # another name makes jax.jit raise a ValueError.
    return jax.jit(step, donate_argnames="state")
