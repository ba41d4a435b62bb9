# replaces: transfer-solution
# fails: transfer-test
def memory_report(x):
    # Infers the layout from is_fully_replicated: right for "all split" and "all copied",
    # wrong for a layout that is split along one mesh axis and copied along another.
    n = len(x.addressable_shards)
    each = int(x.nbytes) if x.is_fully_replicated else int(x.nbytes) // n
    per_device = [each] * n
    return {"global_bytes": int(x.nbytes), "per_device_bytes": per_device, "total_bytes": sum(per_device)}
