# replaces: practice-solution
# fails: practice-test
def seen_counts(key, num_steps, n, batch_size):
    # Assumes every row is seen once per full epoch: forgets the rows that sit out (n % batch_size of them).
    steps_per_epoch = n // batch_size
    full_epochs, steps_left = divmod(num_steps, steps_per_epoch)
    counts = jnp.full(n, full_epochs, dtype=jnp.int32)
    order = jax.random.permutation(jax.random.fold_in(key, full_epochs), n)
    return counts.at[order].add(jnp.arange(n) < steps_left * batch_size)
