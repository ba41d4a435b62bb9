# replaces: practice-heads-solution
# fails: practice-heads-test, challenge-test
def split_heads(x, num_heads):
    # Right shape, wrong content: cuts the flat buffer into blocks, mixing tokens within a head.
    t, width = x.shape
    return x.reshape(num_heads, t, width // num_heads)


def merge_heads(heads):
    # The matching plain reshape: undoes the wrong split, so a round trip still passes.
    num_heads, t, head_dim = heads.shape
    return heads.reshape(t, num_heads * head_dim)
