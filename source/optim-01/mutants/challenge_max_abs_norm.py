# replaces: challenge-solution
# fails: challenge-test
def steps_to_tol(loss, x0, lr, tol, max_steps):
    # Stops on the largest |component| of the gradient (the infinity norm), not its L2 norm.
    grad = jax.grad(loss)

    def keep_going(state):
        x, k = state
        return (k < max_steps) & ~(jnp.max(jnp.abs(grad(x))) <= tol)

    def one_step(state):
        x, k = state
        return x - lr * grad(x), k + 1

    _, k = jax.lax.while_loop(keep_going, one_step, (jnp.asarray(x0), jnp.int32(0)))
    return k
