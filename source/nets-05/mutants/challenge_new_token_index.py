# replaces: challenge-solution
# fails: challenge-test
def sample(apply_fn, params, prompt, key, num_new, temperature=1.0):
    # Folds in the index of the new token (0, 1, ...) instead of its position t in the sequence.
    prompt_len = prompt.shape[0]
    tokens = jnp.zeros(prompt_len + num_new, dtype=jnp.int32).at[:prompt_len].set(prompt)
    for i in range(num_new):
        t = prompt_len + i
        logits = apply_fn(params, tokens)[t - 1] / temperature
        tokens = tokens.at[t].set(jax.random.categorical(jax.random.fold_in(key, i), logits))
    return tokens
