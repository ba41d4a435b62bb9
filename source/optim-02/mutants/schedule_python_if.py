# replaces: practice-schedule-solution
# fails: practice-schedule-test
import math


def warmup_cosine(peak_value, warmup_steps, total_steps, end_value=0.0):
    # A Python if on the count: right for Python ints, but a traced count (jit, vmap) cannot be tested.
    def schedule(count):
        if count < warmup_steps:
            return peak_value * count / warmup_steps
        t = min(count - warmup_steps, total_steps - warmup_steps)
        return end_value + (peak_value - end_value) * 0.5 * (1.0 + math.cos(math.pi * t / (total_steps - warmup_steps)))

    return schedule
