# replaces: challenge-solution
# fails: challenge-test
# Reads only written-out groups ({{...}}); an iota group ([2,4]<=[8]) is taken for all the devices.
def all_reduces(text, mesh):
    """One (axes, arrays) pair per all-reduce in the compiled program `text`, in program order: the names of
    the mesh axes along which its groups' devices differ (in mesh order), and how many arrays it sums."""
    found = []
    for line in text.splitlines():
        if " all-reduce(" not in line:
            continue
        written = re.search(r"replica_groups=\{\{([\d,]*)\}", line)
        group = [int(n) for n in written.group(1).split(",")] if written else list(range(mesh.size))
        coords = np.unravel_index(np.asarray(group), mesh.devices.shape)
        axes = tuple(name for name, c in zip(mesh.axis_names, coords) if len(set(c.tolist())) > 1)
        result_types = line.split(" = ", 1)[1].split(" all-reduce(")[0]
        found.append((axes, len(re.findall(r"\w+\[[\d,]*\]", result_types))))
    return found
