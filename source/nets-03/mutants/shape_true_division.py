# replaces: exercise-solution
# fails: exercise-test
def conv_output_shape(input_shape, kernel_shape, strides, padding):
    # True division instead of floor division: (9 - 2) / 3 + 1 = 3.33 windows. Exact whenever the
    # stride divides n - k, as at stride 1.
    n, h, w, c = input_shape
    kh, kw, c_in, c_out = kernel_shape
    if c != c_in:
        raise ValueError(f"the input has {c} channels, but the kernel expects {c_in}")
    sizes = []
    for axis, (size, k, s) in enumerate(zip((h, w), (kh, kw), strides)):
        if isinstance(padding, str) and padding == "SAME":
            sizes.append(-(-size // s))
        else:
            lo, hi = (0, 0) if isinstance(padding, str) else padding[axis]
            sizes.append((size + lo + hi - k) / s + 1)
    return (n, sizes[0], sizes[1], c_out)
