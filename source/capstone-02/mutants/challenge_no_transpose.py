# replaces: challenge-solution
# fails: challenge-test
# Ignores the T(...) of an iota group: [4,2]<=[2,4]T(1,0) read as {0,1},{2,3},...
def all_reduces(text, mesh):
    """One (axes, arrays) pair per all-reduce in the compiled program `text`, in program order: the names of
    the mesh axes along which its groups' devices differ (in mesh order), and how many arrays it sums."""
    found = []
    for line in text.splitlines():
        if " all-reduce(" not in line:
            continue
        iota = re.search(r"replica_groups=\[([\d,]+)\]<=\[([\d,]+)\]", line)
        if iota:
            group = np.arange(math.prod(int(n) for n in iota.group(2).split(","))).reshape(
                [int(n) for n in iota.group(1).split(",")])[0]
        else:
            group = [int(n) for n in re.search(r"replica_groups=\{\{([\d,]*)\}", line).group(1).split(",")]
        coords = np.unravel_index(np.asarray(group), mesh.devices.shape)
        axes = tuple(name for name, c in zip(mesh.axis_names, coords) if len(set(c.tolist())) > 1)
        result_types = line.split(" = ", 1)[1].split(" all-reduce(")[0]
        found.append((axes, len(re.findall(r"\w+\[[\d,]*\]", result_types))))
    return found
