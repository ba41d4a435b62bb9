# replaces: transfer-solution
# fails: transfer-test
# The MTBF used in hours where the formula needs seconds.
def save_every(save_seconds, step_seconds, mtbf_hours):
    """Young's checkpoint interval for a job whose save stops training for save_seconds, whose step takes
    step_seconds, and which fails on average every mtbf_hours. Returns (every, overhead): the steps between
    two checkpoints (an int, at least 1) and the fraction of the time lost with that interval."""
    every = max(1, round(math.sqrt(2.0 * save_seconds * mtbf_hours) / step_seconds))
    interval = every * step_seconds
    return every, save_seconds / interval + interval / (2.0 * mtbf_hours)
