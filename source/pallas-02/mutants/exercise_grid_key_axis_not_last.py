# replaces: exercise-solution
# fails: exercise-test-values, exercise-test-causal, exercise-test-skip, exercise-test-interpret
def flash_attention(q, k, v, block_q, block_k):
    # The grid variant with the key-block axis in the middle: each output block is left and visited again.
    n, T, d = q.shape
    if T % block_q or T % block_k:
        raise ValueError(f"block_q = {block_q} and block_k = {block_k} must divide T = {T}")
    num_k = T // block_k

    def kernel(q_ref, k_ref, v_ref, o_ref, m_ref, l_ref, acc_ref):
        j, i = pl.program_id(1), pl.program_id(2)

        @pl.when(j == 0)
        def _():
            m_ref[...] = jnp.full(m_ref.shape, -jnp.inf, jnp.float32)
            l_ref[...] = jnp.zeros(l_ref.shape, jnp.float32)
            acc_ref[...] = jnp.zeros(acc_ref.shape, jnp.float32)

        @pl.when(j * block_k <= (i + 1) * block_q - 1)
        def _():
            qb = q_ref[0] / math.sqrt(d)
            s = jax.lax.dot_general(qb, k_ref[0], (((1,), (1,)), ((), ())), precision=HIGHEST,
                                    preferred_element_type=jnp.float32)
            r = i * block_q + jax.lax.broadcasted_iota(jnp.int32, s.shape, 0)
            c = j * block_k + jax.lax.broadcasted_iota(jnp.int32, s.shape, 1)
            s = jnp.where(c <= r, s, -1e30)
            m_old = m_ref[...]
            m_new = jnp.maximum(m_old, jnp.max(s, axis=1, keepdims=True))
            p = jnp.exp(s - m_new)
            a = jnp.exp(m_old - m_new)
            l_ref[...] = a * l_ref[...] + jnp.sum(p, axis=1, keepdims=True)
            acc_ref[...] = a * acc_ref[...] + jnp.dot(p, v_ref[0], precision=HIGHEST, preferred_element_type=jnp.float32)
            m_ref[...] = m_new

        @pl.when(j == num_k - 1)
        def _():
            o_ref[0] = acc_ref[...] / l_ref[...]

    last = lambda i: ((i + 1) * block_q - 1) // block_k
    kv_spec = pl.BlockSpec((1, block_k, d), lambda s, j, i: (s, jnp.minimum(j, last(i)), 0))
    q_spec = pl.BlockSpec((1, block_q, d), lambda s, j, i: (s, i, 0))
    return pl.pallas_call(
        kernel, out_shape=jax.ShapeDtypeStruct(q.shape, jnp.float32),
        grid_spec=pltpu.PrefetchScalarGridSpec(
            num_scalar_prefetch=0, grid=(n, num_k, T // block_q), in_specs=[q_spec, kv_spec, kv_spec], out_specs=q_spec,
            scratch_shapes=[pltpu.VMEM((block_q, 1), jnp.float32), pltpu.VMEM((block_q, 1), jnp.float32),
                            pltpu.VMEM((block_q, d), jnp.float32)]),
        interpret=INTERPRET)(q, k, v)
