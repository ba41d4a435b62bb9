# replaces: transfer-solution
# fails: transfer-test
def rows_follow_permutation(predict_fn, features, order, atol=1e-6):
    # Applies the permutation to the permuted output instead of the original one. For a reversal
    # (its own inverse) that is the same test; for a rotation it is not.
    features = np.asarray(features)
    order = np.asarray(order)
    if not np.array_equal(np.sort(order), np.arange(features.shape[0])):
        raise ValueError("order must be a permutation")
    whole = np.asarray(predict_fn(features))
    permuted = np.asarray(predict_fn(features[order]))
    return bool(np.allclose(permuted[order], whole, rtol=0.0, atol=atol))
