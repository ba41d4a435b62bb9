# replaces: exercise-solution
# fails: exercise-test
def predict_on(device, features, weights, bias):
    # Right arithmetic, but computed by NumPy on the host: nothing ran on `device`.
    return np.asarray(features) @ np.asarray(weights) + bias
