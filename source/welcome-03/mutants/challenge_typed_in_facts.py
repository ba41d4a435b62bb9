# replaces: challenge-solution
# fails: challenge-test
def device_receipt(y, reference, requested):
    # Types in the machine facts this notebook printed on a laptop instead of asking JAX when called:
    # right on this machine, wrong on any other.
    if np.shape(reference) != y.shape:
        raise ValueError("shape mismatch")
    y = y.block_until_ready()
    places = sorted({d.platform for d in y.devices()})
    facts = dict(observed="cpu", device_kinds=["cpu"], device_count=2, process_index=0, process_count=1,
                 jax="0.9.2", jaxlib="0.9.2", python="3.11.7")
    error = np.abs(np.asarray(y) - np.asarray(reference))
    return dict(requested=requested, output_platforms=places, shape=list(y.shape), dtype=str(y.dtype),
                max_abs_error=float(error.max()) if error.size else 0.0,
                platform_matches=facts["observed"] == requested and places == [requested], **facts)
