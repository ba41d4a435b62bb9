# replaces: practice-schedule-solution
# fails: practice-schedule-test
def warmup_cosine(peak_value, warmup_steps, total_steps, end_value=0.0):
    # Forgets to hold end_value after total_steps: the cosine climbs back up.
    def schedule(count):
        count = jnp.asarray(count, jnp.float32)
        warm = peak_value * count / warmup_steps
        decay_steps = total_steps - warmup_steps
        cosine = end_value + (peak_value - end_value) * 0.5 * (1.0 + jnp.cos(jnp.pi * (count - warmup_steps) / decay_steps))
        return jnp.where(count < warmup_steps, warm, cosine)

    return schedule
