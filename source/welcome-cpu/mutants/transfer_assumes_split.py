# replaces: transfer-solution
# fails: transfer-test
def memory_report(x):
    # Assumes the array is always split evenly: global bytes divided by the shard count.
    n = len(x.addressable_shards)
    per_device = [int(x.nbytes) // n] * n
    return {"global_bytes": int(x.nbytes), "per_device_bytes": per_device, "total_bytes": sum(per_device)}
