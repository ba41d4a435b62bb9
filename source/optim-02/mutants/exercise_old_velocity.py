# replaces: exercise-solution
# fails: exercise-test
class MomentumState(NamedTuple):
    velocity: optax.Params   # a tree shaped like the parameters


def my_momentum(learning_rate, momentum):
    # Steps with the velocity from BEFORE this gradient: one update late (the first update is 0).
    def init_fn(params):
        return MomentumState(velocity=jax.tree.map(jnp.zeros_like, params))

    def update_fn(updates, state, params=None):
        new_updates = jax.tree.map(lambda m: -learning_rate * m, state.velocity)
        velocity = jax.tree.map(lambda g, m: g + momentum * m, updates, state.velocity)
        return new_updates, MomentumState(velocity=velocity)

    return optax.GradientTransformation(init_fn, update_fn)
