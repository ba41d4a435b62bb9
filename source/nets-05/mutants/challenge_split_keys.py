# replaces: challenge-solution
# fails: challenge-test
def sample(apply_fn, params, prompt, key, num_new, temperature=1.0):
    # Splits the key into num_new keys: distinct keys, but not the stated rule, and a longer
    # sample no longer starts with the shorter one.
    prompt_len = prompt.shape[0]
    tokens = jnp.zeros(prompt_len + num_new, dtype=jnp.int32).at[:prompt_len].set(prompt)
    keys = jax.random.split(key, num_new)
    for i in range(num_new):
        t = prompt_len + i
        logits = apply_fn(params, tokens)[t - 1] / temperature
        tokens = tokens.at[t].set(jax.random.categorical(keys[i], logits))
    return tokens
