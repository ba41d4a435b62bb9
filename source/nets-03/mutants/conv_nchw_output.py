# replaces: practice-conv-solution
# fails: practice-conv-test
def conv2d(x, w, b, stride=1, padding="SAME"):
    # Converts to PyTorch's layout, convolves there, and returns the NCHW numbers as they are:
    # (N, O, H, W) instead of (N, H, W, O). For 8 x 8 maps with 8 channels the shapes even agree.
    out = lax.conv_general_dilated(x.transpose(0, 3, 1, 2), w.transpose(3, 2, 0, 1), (stride, stride), padding,
                                   dimension_numbers=("NCHW", "OIHW", "NCHW"))
    return out + b[:, None, None]
