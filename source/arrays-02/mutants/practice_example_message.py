# replaces: practice-solution
# fails: practice-test
def broadcast_shape(shape_a, shape_b):
    # The rule is right, but the message is the visible test's, whatever the shapes are.
    shape_a, shape_b = tuple(shape_a), tuple(shape_b)
    ndim = max(len(shape_a), len(shape_b))
    padded_a = (1,) * (ndim - len(shape_a)) + shape_a
    padded_b = (1,) * (ndim - len(shape_b)) + shape_b
    result = []
    for size_a, size_b in zip(padded_a, padded_b):
        if size_a == size_b or size_b == 1:
            result.append(size_a)
        elif size_a == 1:
            result.append(size_b)
        else:
            raise ValueError("shapes (2, 3) and (2,) cannot be broadcast")
    return tuple(result)
