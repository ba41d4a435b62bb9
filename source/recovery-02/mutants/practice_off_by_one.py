# replaces: practice-solution
# fails: practice-test
def seen_counts(key, num_steps, n, batch_size):
    # Counts steps 0..num_steps inclusive: the batch of step num_steps has not been trained on yet.
    num_steps = num_steps + 1
    steps_per_epoch = n // batch_size
    counts = jnp.zeros(n, dtype=jnp.int32)
    for epoch in range(-(-num_steps // steps_per_epoch)):
        order = jax.random.permutation(jax.random.fold_in(key, epoch), n)
        rows_used = min(steps_per_epoch, num_steps - epoch * steps_per_epoch) * batch_size
        counts = counts.at[order].add(jnp.arange(n) < rows_used)
    return counts
