# replaces: exercise-solution
# fails: exercise-test
def conv_output_shape(input_shape, kernel_shape, strides, padding):
    # Unpacks one (low, high) pair and uses it for both axes: padding[0] is the height's pair, and
    # the width's pair, padding[1], is never read. Right whenever both axes pad by the same total.
    n, h, w, c = input_shape
    kh, kw, c_in, c_out = kernel_shape
    sh, sw = strides
    if c != c_in:
        raise ValueError(f"the input has {c} channels, but the kernel expects {c_in}")
    if padding == "SAME":
        return (int(n), -(-h // sh), -(-w // sw), int(c_out))
    lo, hi = (0, 0) if padding == "VALID" else padding[0]
    return (int(n), (h + lo + hi - kh) // sh + 1, (w + lo + hi - kw) // sw + 1, int(c_out))
