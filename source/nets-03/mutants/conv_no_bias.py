# replaces: practice-conv-solution
# fails: practice-conv-test
def conv2d(x, w, b, stride=1, padding="SAME"):
    # Forgets the bias.
    return lax.conv_general_dilated(x, w, (stride, stride), padding, dimension_numbers=("NHWC", "HWIO", "NHWC"))
