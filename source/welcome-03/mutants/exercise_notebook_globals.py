# replaces: exercise-solution
# fails: exercise-test
def predict_on(device, features, weights, bias):
    # Reuses the notebook's x and w from Step 2 instead of placing the arguments it was given.
    return affine(x, w, np.float32(bias)).block_until_ready()
