# replaces: challenge-solution
# fails: challenge-test
def extract_patches(x, kernel_hw, stride):
    # Channel-first patches (the order of lax.conv_general_dilated_patches): index c * KH * KW + i * KW + j.
    # The same as the requested order when C == 1.
    n, h, w, c = x.shape
    kh, kw = kernel_hw
    out_h, out_w = (h - kh) // stride + 1, (w - kw) // stride + 1
    pieces = [x[:, i:i + stride * (out_h - 1) + 1:stride, j:j + stride * (out_w - 1) + 1:stride, :]
              for i in range(kh) for j in range(kw)]
    return jnp.stack(pieces, axis=4).reshape(n, out_h, out_w, kh * kw * c)


def conv2d_as_matmul(x, w, stride):
    # Consistent with its own patches (the kernel is reordered to channel-first), so the convolution is right.
    kh, kw, c, o = w.shape
    return extract_patches(x, (kh, kw), stride) @ w.transpose(2, 0, 1, 3).reshape(c * kh * kw, o)
