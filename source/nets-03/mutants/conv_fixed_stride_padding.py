# replaces: practice-conv-solution
# fails: practice-conv-test
def conv2d(x, w, b, stride=1, padding="SAME"):
    # Copies the call of Step 3: always stride 1 and "SAME", whatever the caller asks for.
    out = lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))
    return out + b
