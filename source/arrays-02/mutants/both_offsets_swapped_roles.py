# replaces: both-offsets-solution
# fails: both-offsets-test
def add_bias_and_offsets(batch, bias, offsets):
    # Swaps the roles: the bias becomes a column (one value per row), the offsets run along the
    # features. A square batch accepts it without an error.
    return batch + offsets + bias[:, None]
