# replaces: challenge-solution
# fails: challenge-test
def sample(apply_fn, params, prompt, key, num_new, temperature=1.0):
    # One key for every position: the same Gumbel noise at every step, so the draws are not independent.
    tokens = prompt
    for t in range(prompt.shape[0], prompt.shape[0] + num_new):
        logits = apply_fn(params, tokens)[t - 1] / temperature
        tokens = jnp.concatenate([tokens, jax.random.categorical(key, logits)[None]])
    return tokens
