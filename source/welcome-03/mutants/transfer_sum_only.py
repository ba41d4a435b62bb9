# replaces: transfer-solution
# fails: transfer-test
def rows_follow_permutation(predict_fn, features, order, atol=1e-6):
    # Compares totals only: any reordering of the outputs keeps the sum.
    features = np.asarray(features)
    order = np.asarray(order)
    if not np.array_equal(np.sort(order), np.arange(features.shape[0])):
        raise ValueError("order must be a permutation")
    whole = np.asarray(predict_fn(features))
    permuted = np.asarray(predict_fn(features[order]))
    return bool(abs(float(permuted.sum()) - float(whole.sum())) <= atol)
