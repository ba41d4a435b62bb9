# replaces: practice-solution
# fails: practice-test
def broadcast_shape(shape_a, shape_b):
    # Lines the shapes up from the left (pads with 1s at the end): (3,) becomes (3, 1).
    shape_a, shape_b = tuple(shape_a), tuple(shape_b)
    ndim = max(len(shape_a), len(shape_b))
    padded_a = shape_a + (1,) * (ndim - len(shape_a))
    padded_b = shape_b + (1,) * (ndim - len(shape_b))
    result = []
    for size_a, size_b in zip(padded_a, padded_b):
        if size_a == size_b or size_b == 1:
            result.append(size_a)
        elif size_a == 1:
            result.append(size_b)
        else:
            raise ValueError(f"shapes {shape_a} and {shape_b} cannot be broadcast: {size_a} against {size_b}")
    return tuple(result)
