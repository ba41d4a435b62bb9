# replaces: challenge-solution
# fails: challenge-test
def extract_patches(x, kernel_hw, stride):
    # Counts the output positions with the stride but slices without it: the windows of stride 1,
    # truncated. Right shapes, right values at stride 1 only.
    n, h, w, c = x.shape
    kh, kw = kernel_hw
    out_h, out_w = (h - kh) // stride + 1, (w - kw) // stride + 1
    pieces = [x[:, i:i + out_h, j:j + out_w, :] for i in range(kh) for j in range(kw)]
    return jnp.stack(pieces, axis=3).reshape(n, out_h, out_w, kh * kw * c)


def conv2d_as_matmul(x, w, stride):
    kh, kw, c, o = w.shape
    return extract_patches(x, (kh, kw), stride) @ w.reshape(kh * kw * c, o)
