# replaces: challenge-solution
# fails: challenge-test
def sample(apply_fn, params, prompt, key, num_new, temperature=1.0):
    # Off by one: reads row t of the logits, which scores position t + 1, not position t.
    prompt_len = prompt.shape[0]
    tokens = jnp.zeros(prompt_len + num_new, dtype=jnp.int32).at[:prompt_len].set(prompt)

    def fill(t, tokens):
        logits = apply_fn(params, tokens)[t] / temperature
        return tokens.at[t].set(jax.random.categorical(jax.random.fold_in(key, t), logits))

    return jax.lax.fori_loop(prompt_len, prompt_len + num_new, fill, tokens)
