# replaces: practice-solution
# fails: practice-test
@jax.jit
def pairwise_sq_dists(xs, ys):
    # A Python loop hidden under jax.jit: the outer program is one call at every size, the
    # program inside it grows with len(xs) * len(ys).
    return jnp.stack([jnp.stack([sq_dist(x, y) for y in ys]) for x in xs])
