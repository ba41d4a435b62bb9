# replaces: both-offsets-solution
# fails: both-offsets-test
def add_bias_and_offsets(batch, bias, offsets):
    # Tries the bare vectors first and makes the offsets a column only when JAX complains. The
    # (2, 3) example complains, so it looks right; a square batch does not, and the offsets land
    # on the features.
    try:
        return batch + bias + offsets
    except (ValueError, TypeError):
        return batch + bias + offsets[:, None]
