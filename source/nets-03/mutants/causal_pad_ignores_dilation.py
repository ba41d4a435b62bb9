# replaces: transfer-solution
# fails: transfer-test
def causal_conv1d(x, w, dilation=1):
    # Pads K - 1 steps whatever the dilation: right for d = 1, too short for d > 1.
    k = w.shape[0]
    return lax.conv_general_dilated(x, w, (1,), [(k - 1, 0)], rhs_dilation=(dilation,),
                                    dimension_numbers=("NWC", "WIO", "NWC"))
