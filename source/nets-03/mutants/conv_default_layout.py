# replaces: practice-conv-solution
# fails: practice-conv-test
def conv2d(x, w, b, stride=1, padding="SAME"):
    # No dimension_numbers: lax assumes NCHW / OIHW and reads the NHWC rows as channels.
    return lax.conv_general_dilated(x, w, (stride, stride), padding) + b
