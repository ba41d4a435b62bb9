# replaces: practice-conv-solution
# fails: practice-conv-test
def conv2d(x, w, b, stride=1, padding="SAME"):
    # A textbook convolution: flips the kernel, which lax.conv_general_dilated does not do.
    # Invisible for symmetric kernels; the sign of every edge response flips for K.
    out = lax.conv_general_dilated(x, w[::-1, ::-1], (stride, stride), padding, dimension_numbers=("NHWC", "HWIO", "NHWC"))
    return out + b
