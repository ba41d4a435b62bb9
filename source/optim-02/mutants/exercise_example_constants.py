# replaces: exercise-solution
# fails: exercise-test
class MomentumState(NamedTuple):
    velocity: optax.Params   # a tree shaped like the parameters


def my_momentum(learning_rate, momentum):
    # Types in the prompt's example, lr 0.1 and momentum 0.9, instead of using the arguments.
    def init_fn(params):
        return MomentumState(velocity=jax.tree.map(jnp.zeros_like, params))

    def update_fn(updates, state, params=None):
        velocity = jax.tree.map(lambda g, m: g + 0.9 * m, updates, state.velocity)
        return jax.tree.map(lambda m: -0.1 * m, velocity), MomentumState(velocity=velocity)

    return optax.GradientTransformation(init_fn, update_fn)
