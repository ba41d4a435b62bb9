# replaces: transfer-solution
# fails: transfer-test
def rows_follow_permutation(predict_fn, features, order, atol=1e-6):
    # Rejects a repeated index but not a missing one: a short order passes as a permutation.
    features = np.asarray(features)
    order = np.asarray(order)
    if len(set(order.tolist())) != len(order):
        raise ValueError(f"order repeats an index: {order.tolist()}")
    permuted = np.asarray(predict_fn(features[order]))
    expected = np.asarray(predict_fn(features))[order]
    if permuted.shape != expected.shape:
        return False
    return bool(np.allclose(permuted, expected, rtol=0.0, atol=atol))
