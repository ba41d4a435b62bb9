# replaces: challenge-solution
# fails: challenge-test
# Counts instructions, not arrays: a tuple all-reduce of 38 gradients counts as 1.
def all_reduces(text, mesh):
    """One (axes, arrays) pair per all-reduce in the compiled program `text`, in program order: the names of
    the mesh axes along which its groups' devices differ (in mesh order), and how many arrays it sums."""
    found = []
    for line in text.splitlines():
        if " all-reduce(" not in line:
            continue
        iota = re.search(r"replica_groups=\[([\d,]+)\]<=\[([\d,]+)\](?:T\(([\d,]+)\))?", line)
        if iota:
            dims = [int(n) for n in iota.group(2).split(",")]
            ids = np.arange(math.prod(dims)).reshape(dims)
            if iota.group(3):
                ids = ids.transpose([int(n) for n in iota.group(3).split(",")])
            group = ids.reshape([int(n) for n in iota.group(1).split(",")])[0]
        else:
            group = [int(n) for n in re.search(r"replica_groups=\{\{([\d,]*)\}", line).group(1).split(",")]
        coords = np.unravel_index(np.asarray(group), mesh.devices.shape)
        found.append((tuple(name for name, c in zip(mesh.axis_names, coords) if len(set(c.tolist())) > 1), 1))
    return found
