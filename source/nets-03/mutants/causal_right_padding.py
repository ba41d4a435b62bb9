# replaces: transfer-solution
# fails: transfer-test
def causal_conv1d(x, w, dilation=1):
    # All the padding at the END: the right length, but out[t] sees x[t] and the future.
    k = w.shape[0]
    return lax.conv_general_dilated(x, w, (1,), [(0, (k - 1) * dilation)], rhs_dilation=(dilation,),
                                    dimension_numbers=("NWC", "WIO", "NWC"))
