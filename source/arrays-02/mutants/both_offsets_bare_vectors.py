# replaces: both-offsets-solution
# fails: both-offsets-test
def add_bias_and_offsets(batch, bias, offsets):
    # Leaves the offsets as (n,): they line up with the features, like the bias. On a square batch
    # this runs and adds offsets[j] to column j; on a non-square one it raises.
    return batch + bias + offsets
