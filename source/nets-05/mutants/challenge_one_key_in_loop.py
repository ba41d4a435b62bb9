# replaces: challenge-solution
# fails: challenge-test
def sample(apply_fn, params, prompt, key, num_new, temperature=1.0):
    # One key for every position, inside fori_loop: traced once, so the reuse checker sees a single
    # use, but every position still gets the same Gumbel noise.
    prompt_len = prompt.shape[0]
    tokens = jnp.zeros(prompt_len + num_new, dtype=jnp.int32).at[:prompt_len].set(prompt)

    def fill(t, tokens):
        logits = apply_fn(params, tokens)[t - 1] / temperature
        return tokens.at[t].set(jax.random.categorical(key, logits))

    return jax.lax.fori_loop(prompt_len, prompt_len + num_new, fill, tokens)
