# replaces: practice-schedule-solution
# fails: practice-schedule-test
def warmup_cosine(peak_value, warmup_steps, total_steps, end_value=0.0):
    # Off by one: counts updates from 1, so the first update already gets peak / warmup_steps.
    def schedule(count):
        count = jnp.asarray(count, jnp.float32) + 1.0
        warm = peak_value * count / warmup_steps
        decay_steps = total_steps - warmup_steps
        t = jnp.clip(count - warmup_steps, 0, decay_steps)
        cosine = end_value + (peak_value - end_value) * 0.5 * (1.0 + jnp.cos(jnp.pi * t / decay_steps))
        return jnp.where(count < warmup_steps, warm, cosine)

    return schedule
