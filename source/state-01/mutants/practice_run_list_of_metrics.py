# replaces: practice-run-solution
# fails: practice-run-test
def run(step, state, batches):
    # Returns a Python list with one metrics entry per step instead of the stacked structure.
    final_state, metrics = jax.lax.scan(step, state, batches)
    num_steps = jax.tree.leaves(batches)[0].shape[0]
    return final_state, [jax.tree.map(lambda m: m[t], metrics) for t in range(num_steps)]
