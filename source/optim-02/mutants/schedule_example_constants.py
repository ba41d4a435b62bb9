# replaces: practice-schedule-solution
# fails: practice-schedule-test
def warmup_cosine(peak_value, warmup_steps, total_steps, end_value=0.0):
    # Returns the prompt's example schedule whatever the arguments.
    return optax.warmup_cosine_decay_schedule(0.0, 1.0, 4, 12, 0.1)
