# replaces: transfer-solution
# fails: transfer-test
def rows_follow_permutation(predict_fn, features, order, atol=1e-6):
    # Never checks that `order` is a permutation: a repeated index just compares duplicated rows.
    features = np.asarray(features)
    order = np.asarray(order)
    whole = np.asarray(predict_fn(features))
    permuted = np.asarray(predict_fn(features[order]))
    return bool(np.allclose(permuted, whole[order], rtol=0.0, atol=atol))
