# replaces: exercise-solution
# fails: exercise-test
def conv_output_shape(input_shape, kernel_shape, strides, padding):
    # "SAME with stride s divides the size by s": floor instead of ceil. Right for every even size
    # (8 -> 4, as in the example), one too small for an odd one (7 -> 3 instead of 4).
    n, h, w, c = input_shape
    kh, kw, c_in, c_out = kernel_shape
    if c != c_in:
        raise ValueError(f"the input has {c} channels, but the kernel expects {c_in}")
    sizes = []
    for axis, (size, k, s) in enumerate(zip((h, w), (kh, kw), strides)):
        if isinstance(padding, str) and padding == "SAME":
            sizes.append(size // s)
        else:
            lo, hi = (0, 0) if isinstance(padding, str) else padding[axis]
            sizes.append(max((size + lo + hi - k) // s + 1, 0))
    return (int(n), int(sizes[0]), int(sizes[1]), int(c_out))
