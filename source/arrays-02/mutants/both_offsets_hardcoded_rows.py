# replaces: both-offsets-solution
# fails: both-offsets-test
def add_bias_and_offsets(batch, bias, offsets):
    # Typed in from the example: reshape(2, 1) only fits a batch of two observations.
    return batch + bias + offsets.reshape(2, 1)
