# replaces: practice-schedule-solution
# fails: practice-schedule-test
def warmup_cosine(peak_value, warmup_steps, total_steps, end_value=0.0):
    # Off by one: divides by warmup_steps - 1, so the warmup reaches the peak one count early.
    def schedule(count):
        count = jnp.asarray(count, jnp.float32)
        warm = peak_value * count / jnp.maximum(warmup_steps - 1, 1)
        decay_steps = total_steps - warmup_steps
        t = jnp.clip(count - warmup_steps, 0, decay_steps)
        cosine = end_value + (peak_value - end_value) * 0.5 * (1.0 + jnp.cos(jnp.pi * t / decay_steps))
        return jnp.where(count < warmup_steps, jnp.minimum(warm, peak_value), cosine)

    return schedule
