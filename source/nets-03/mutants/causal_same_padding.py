# replaces: transfer-solution
# fails: transfer-test
def causal_conv1d(x, w, dilation=1):
    # "SAME" keeps the length but centres the kernel: half of the taps look into the future.
    return lax.conv_general_dilated(x, w, (1,), "SAME", rhs_dilation=(dilation,),
                                    dimension_numbers=("NWC", "WIO", "NWC"))
