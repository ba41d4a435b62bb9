# replaces: practice-solution
# fails: practice-test
def broadcast_shape(shape_a, shape_b):
    # Only lets a 1 in shape_b stretch; a 1 in shape_a is treated as a conflict.
    # Fine for "batch with bias", wrong for (3,) with (3, 1), which is (3, 3).
    shape_a, shape_b = tuple(shape_a), tuple(shape_b)
    ndim = max(len(shape_a), len(shape_b))
    padded_a = (1,) * (ndim - len(shape_a)) + shape_a
    padded_b = (1,) * (ndim - len(shape_b)) + shape_b
    result = []
    for size_a, size_b in zip(padded_a, padded_b):
        if size_a == size_b or size_b == 1:
            result.append(size_a)
        else:
            raise ValueError(f"shapes {shape_a} and {shape_b} cannot be broadcast: {size_a} against {size_b}")
    return tuple(result)
