# replaces: practice-heads-solution
# fails: practice-heads-test, challenge-test
def split_heads(x, num_heads):
    # Deals the features out like cards: head h gets features h, h + N, h + 2N, ... instead of a block.
    t, width = x.shape
    return x.reshape(t, width // num_heads, num_heads).transpose(2, 0, 1)


def merge_heads(heads):
    num_heads, t, head_dim = heads.shape
    return heads.transpose(1, 2, 0).reshape(t, num_heads * head_dim)
