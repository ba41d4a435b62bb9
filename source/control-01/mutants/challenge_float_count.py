# replaces: challenge-solution
# fails: challenge-test
def collatz_steps(n):
    # Counts in float32: the right numbers, as floats.
    def not_done(state):
        value, _ = state
        return value != 1

    def one_step(state):
        value, steps = state
        value = jnp.where(value % 2 == 0, value // 2, 3 * value + 1)
        return value, steps + 1.0

    _, steps = jax.lax.while_loop(not_done, one_step, (jnp.asarray(n, dtype=jnp.int32), jnp.float32(0)))
    return steps
