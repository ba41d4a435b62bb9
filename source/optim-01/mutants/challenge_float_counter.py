# replaces: challenge-solution
# fails: challenge-test
def steps_to_tol(loss, x0, lr, tol, max_steps):
    # Counts the steps in float32: the right numbers, as floats.
    grad = jax.grad(loss)

    def keep_going(state):
        x, k = state
        return (k < max_steps) & ~(jnp.linalg.norm(grad(x)) <= tol)

    def one_step(state):
        x, k = state
        return x - lr * grad(x), k + 1.0

    _, k = jax.lax.while_loop(keep_going, one_step, (jnp.asarray(x0), jnp.zeros(())))
    return k
