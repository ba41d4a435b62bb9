# replaces: exercise-solution
# fails: exercise-test, challenge-test
def causal_mask(t):
    # Strictly below the diagonal: no token may attend to itself, and row 0 keeps no key at all.
    return jnp.tril(jnp.ones((t, t), dtype=bool), k=-1)
