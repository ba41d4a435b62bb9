# replaces: transfer-solution
# fails: transfer-test
def causal_conv1d(x, w, dilation=1):
    # Ignores the dilation: the taps are always adjacent steps.
    k = w.shape[0]
    return lax.conv_general_dilated(x, w, (1,), [(k - 1, 0)], dimension_numbers=("NWC", "WIO", "NWC"))
