# replaces: practice-solution
# fails: practice-test
def broadcast_shape(shape_a, shape_b):
    # Takes the larger size in each position and never checks compatibility.
    shape_a, shape_b = tuple(shape_a), tuple(shape_b)
    ndim = max(len(shape_a), len(shape_b))
    padded_a = (1,) * (ndim - len(shape_a)) + shape_a
    padded_b = (1,) * (ndim - len(shape_b)) + shape_b
    return tuple(max(size_a, size_b) for size_a, size_b in zip(padded_a, padded_b))
