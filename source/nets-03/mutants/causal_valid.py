# replaces: transfer-solution
# fails: transfer-test
def causal_conv1d(x, w, dilation=1):
    # No padding: causal, but (K - 1) * d steps shorter than the input.
    return lax.conv_general_dilated(x, w, (1,), "VALID", rhs_dilation=(dilation,),
                                    dimension_numbers=("NWC", "WIO", "NWC"))
