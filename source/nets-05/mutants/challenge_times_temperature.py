# replaces: challenge-solution
# fails: challenge-test
def sample(apply_fn, params, prompt, key, num_new, temperature=1.0):
    # Multiplies the logits by the temperature: T = 2 sharpens instead of flattening.
    prompt_len = prompt.shape[0]
    tokens = jnp.zeros(prompt_len + num_new, dtype=jnp.int32).at[:prompt_len].set(prompt)

    def fill(t, tokens):
        logits = apply_fn(params, tokens)[t - 1] * temperature
        return tokens.at[t].set(jax.random.categorical(jax.random.fold_in(key, t), logits))

    return jax.lax.fori_loop(prompt_len, prompt_len + num_new, fill, tokens)
