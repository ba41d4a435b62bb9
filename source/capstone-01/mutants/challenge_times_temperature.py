# replaces: challenge-solution
# fails: challenge-test
# Multiplies the logits by the temperature.
@functools.partial(nnx.jit, static_argnames=("num_new", "temperature"))
def generate(model, prompt, key, num_new, temperature=1.0):
    """prompt (P,) int32, P >= 1 -> (P + num_new,) int32: the prompt, then num_new generated tokens.
    Position t is read from the logits of the last min(model.config.context, P + num_new) tokens before it
    (the rule above): their argmax when temperature == 0, else a draw with fold_in(key, t)."""
    prompt_len = prompt.shape[0]
    total = prompt_len + num_new
    window = min(model.config.context, total)
    tokens = jnp.zeros(total, dtype=jnp.int32).at[:prompt_len].set(prompt)

    def fill(t, tokens):
        start = jnp.clip(t - window, 0, total - window)               # the window ends at position t - 1
        logits = model(jax.lax.dynamic_slice(tokens, (start,), (window,)))[t - 1 - start]
        if temperature == 0:
            token = jnp.argmax(logits)
        else:
            token = jax.random.categorical(jax.random.fold_in(key, t), logits * temperature)
        return tokens.at[t].set(token.astype(jnp.int32))

    return jax.lax.fori_loop(prompt_len, total, fill, tokens)
