# replaces: challenge-solution
# fails: challenge-test
def mask_above(values, threshold):
    # Compact selection instead of a fixed-shape mask: the shape depends on the values.
    return values[values > threshold]


def select_above(values, threshold):
    return values[values > threshold]
