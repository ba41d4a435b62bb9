# replaces: challenge-solution
# fails: challenge-test
def sample(apply_fn, params, prompt, key, num_new, temperature=1.0):
    # Greedy decoding: always the most likely token, so the key is never used.
    prompt_len = prompt.shape[0]
    tokens = jnp.zeros(prompt_len + num_new, dtype=jnp.int32).at[:prompt_len].set(prompt)

    def fill(t, tokens):
        return tokens.at[t].set(jnp.argmax(apply_fn(params, tokens)[t - 1]).astype(jnp.int32))

    return jax.lax.fori_loop(prompt_len, prompt_len + num_new, fill, tokens)
