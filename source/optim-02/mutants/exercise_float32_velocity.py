# replaces: exercise-solution
# fails: exercise-test
class MomentumState(NamedTuple):
    velocity: optax.Params


def my_momentum(learning_rate, momentum):
    # Starts the velocity as float32 zeros of the parameters' shapes: bfloat16 parameters get float32 updates.
    def init_fn(params):
        return MomentumState(velocity=jax.tree.map(lambda p: jnp.zeros(jnp.shape(p)), params))

    def update_fn(updates, state, params=None):
        velocity = jax.tree.map(lambda g, m: g + momentum * m, updates, state.velocity)
        return jax.tree.map(lambda m: -learning_rate * m, velocity), MomentumState(velocity=velocity)

    return optax.GradientTransformation(init_fn, update_fn)
