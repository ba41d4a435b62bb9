# replaces: challenge-solution
# fails: challenge-test
def hvp(f, x, v):
    # Keeps the wrong output of the JVP: entry 0 is the gradient itself, not H v.
    return jax.jvp(jax.grad(f), (x,), (v,))[0]
