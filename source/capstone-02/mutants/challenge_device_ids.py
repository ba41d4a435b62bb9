# replaces: challenge-solution
# fails: challenge-test
# Reads the group's numbers as device ids and looks the devices up in the mesh: wrong when the mesh's
# devices are not in the order of their ids.
def all_reduces(text, mesh):
    """One (axes, arrays) pair per all-reduce in the compiled program `text`, in program order: the names of
    the mesh axes along which its groups' devices differ (in mesh order), and how many arrays it sums."""
    found = []
    where = {int(d.id): i for i, d in enumerate(mesh.devices.flat)}
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
        group = [where[int(n)] for n in group]
        coords = np.unravel_index(np.asarray(group), mesh.devices.shape)
        axes = tuple(name for name, c in zip(mesh.axis_names, coords) if len(set(c.tolist())) > 1)
        result_types = line.split(" = ", 1)[1].split(" all-reduce(")[0]
        found.append((axes, len(re.findall(r"\w+\[[\d,]*\]", result_types))))
    return found
