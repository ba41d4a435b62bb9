# replaces: practice-run-solution
# fails: practice-run-test
def run(step, state, batches):
    # Keeps only the metrics of the last step: the history of the run is lost.
    final_state, metrics = jax.lax.scan(step, state, batches)
    return final_state, jax.tree.map(lambda m: m[-1], metrics)
