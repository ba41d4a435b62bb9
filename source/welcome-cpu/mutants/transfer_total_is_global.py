# replaces: transfer-solution
# fails: transfer-test
def memory_report(x):
    # Reports the global size as the total, ignoring the extra copies.
    per_device = sorted(int(shard.data.nbytes) for shard in x.addressable_shards)
    return {"global_bytes": int(x.nbytes), "per_device_bytes": per_device, "total_bytes": int(x.nbytes)}
