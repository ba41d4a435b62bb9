# replaces: exercise-solution
# fails: exercise-test
class MomentumState(NamedTuple):
    velocity: optax.Params   # a tree shaped like the parameters


def my_momentum(learning_rate, momentum):
    # The running AVERAGE m = mu m + (1 - mu) g: steps (1 - mu) times those of optax.sgd.
    def init_fn(params):
        return MomentumState(velocity=jax.tree.map(jnp.zeros_like, params))

    def update_fn(updates, state, params=None):
        velocity = jax.tree.map(lambda g, m: momentum * m + (1.0 - momentum) * g, updates, state.velocity)
        return jax.tree.map(lambda m: -learning_rate * m, velocity), MomentumState(velocity=velocity)

    return optax.GradientTransformation(init_fn, update_fn)
