# replaces: transfer-solution
# fails: transfer-test
# Counts a whole interval of work as lost at each failure, where on average half of one is.
def save_every(save_seconds, step_seconds, mtbf_hours):
    """Young's checkpoint interval for a job whose save stops training for save_seconds, whose step takes
    step_seconds, and which fails on average every mtbf_hours. Returns (every, overhead): the steps between
    two checkpoints (an int, at least 1) and the fraction of the time lost with that interval."""
    mtbf = 3600.0 * mtbf_hours
    every = max(1, round(math.sqrt(2.0 * save_seconds * mtbf) / step_seconds))
    interval = every * step_seconds
    return every, save_seconds / interval + interval / mtbf
