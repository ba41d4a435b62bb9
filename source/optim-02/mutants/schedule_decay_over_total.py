# replaces: practice-schedule-solution
# fails: practice-schedule-test
def warmup_cosine(peak_value, warmup_steps, total_steps, end_value=0.0):
    # Reads total_steps as the length of the cosine alone: the decay ends warmup_steps too late.
    def schedule(count):
        count = jnp.asarray(count, jnp.float32)
        warm = peak_value * count / warmup_steps
        t = jnp.clip(count - warmup_steps, 0, total_steps)
        cosine = end_value + (peak_value - end_value) * 0.5 * (1.0 + jnp.cos(jnp.pi * t / total_steps))
        return jnp.where(count < warmup_steps, warm, cosine)

    return schedule
