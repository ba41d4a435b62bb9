# replaces: practice-heads-solution
# fails: practice-heads-test, challenge-test
def split_heads(x, num_heads):
    t, width = x.shape
    return x.reshape(t, num_heads, width // num_heads).transpose(1, 0, 2)


def merge_heads(heads):
    # Reshapes the head-major array directly: token rows come out scrambled.
    num_heads, t, head_dim = heads.shape
    return heads.reshape(t, num_heads * head_dim)
