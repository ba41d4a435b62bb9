# replaces: challenge-solution
# fails: challenge-test
def collatz_steps(n):
    # A fixed budget of 100 masked iterations: compiles and batches, but stops counting at 100.
    def one_step(i, state):
        value, steps = state
        running = value != 1
        value = jnp.where(running, jnp.where(value % 2 == 0, value // 2, 3 * value + 1), value)
        return value, steps + running.astype(jnp.int32)

    _, steps = jax.lax.fori_loop(0, 100, one_step, (jnp.asarray(n, dtype=jnp.int32), jnp.int32(0)))
    return steps
