# replaces: exercise-solution
# fails: exercise-test
def conv_output_shape(input_shape, kernel_shape, strides, padding):
    # Reads the kernel as WHIO: the kernel width is used for the height and vice versa. Invisible
    # for the square 3 x 3 kernels of the examples.
    n, h, w, c = input_shape
    kw, kh, c_in, c_out = kernel_shape
    if c != c_in:
        raise ValueError(f"the input has {c} channels, but the kernel expects {c_in}")
    sizes = []
    for axis, (size, k, s) in enumerate(zip((h, w), (kh, kw), strides)):
        if isinstance(padding, str) and padding == "SAME":
            sizes.append(-(-size // s))
        else:
            lo, hi = (0, 0) if isinstance(padding, str) else padding[axis]
            sizes.append(max((size + lo + hi - k) // s + 1, 0))
    return (int(n), int(sizes[0]), int(sizes[1]), int(c_out))
