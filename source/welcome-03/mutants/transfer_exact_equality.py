# replaces: transfer-solution
# fails: transfer-test
def rows_follow_permutation(predict_fn, features, order, atol=1e-6):
    # Compares bit for bit: the atol it is given is ignored.
    features = np.asarray(features)
    order = np.asarray(order)
    if order.shape != (features.shape[0],) or not np.array_equal(np.sort(order), np.arange(features.shape[0])):
        raise ValueError(f"order must be a permutation of 0..{features.shape[0] - 1}; got {order.tolist()}")
    permuted = np.asarray(predict_fn(features[order]))
    expected = np.asarray(predict_fn(features))[order]
    return bool(permuted.shape == expected.shape and np.array_equal(permuted, expected))
