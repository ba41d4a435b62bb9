# replaces: exercise-solution
# fails: exercise-test-values
def flash_attention(q, k, v, block_q, block_k):
    # Causal attention softmax(q k^T / sqrt(d), u <= t) v for float32 q, k, v of shape (N, T, d), as one
    # Pallas kernel over (sequence, query block) with an online softmax over the key blocks it needs.
    # No running maximum: l and acc sum exp(s) of the raw scores, right until a score passes 88.7 and exp overflows.
    n, T, d = q.shape
    if T % block_q or T % block_k:
        raise ValueError(f"block_q = {block_q} and block_k = {block_k} must divide the sequence length T = {T}")
    scale = 1.0 / math.sqrt(d)

    def kernel(q_ref, k_ref, v_ref, o_ref):
        i = pl.program_id(1)
        q_block = q_ref[0] * scale                                                  # (block_q, d)
        rows = i * block_q + jax.lax.broadcasted_iota(jnp.int32, (block_q, block_k), 0)

        def step(j, carry):
            l, acc = carry
            k_block = k_ref[0, pl.ds(j * block_k, block_k), :]
            v_block = v_ref[0, pl.ds(j * block_k, block_k), :]
            s = jax.lax.dot_general(q_block, k_block, (((1,), (1,)), ((), ())), precision=HIGHEST,
                                    preferred_element_type=jnp.float32)             # (block_q, block_k)
            cols = j * block_k + jax.lax.broadcasted_iota(jnp.int32, (block_q, block_k), 1)
            s = jnp.where(cols <= rows, s, MASK_VALUE)
            p = jnp.exp(s)
            l = l + p.sum(axis=1, keepdims=True)
            acc = acc + jnp.dot(p, v_block, precision=HIGHEST, preferred_element_type=jnp.float32)
            return l, acc

        start = (jnp.zeros((block_q, 1), jnp.float32), jnp.zeros((block_q, d), jnp.float32))
        l, acc = jax.lax.fori_loop(0, key_blocks_needed(i, block_q, block_k), step, start)
        o_ref[0] = (acc / l).astype(o_ref.dtype)

    rows_spec = pl.BlockSpec((1, block_q, d), lambda s, i: (s, i, 0))
    whole_spec = pl.BlockSpec((1, T, d), lambda s, i: (s, 0, 0))
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(q.shape, jnp.float32), grid=(n, T // block_q),
                          in_specs=[rows_spec, whole_spec, whole_spec], out_specs=rows_spec,
                          interpret=INTERPRET)(q, k, v)
