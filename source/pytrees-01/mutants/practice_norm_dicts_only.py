# replaces: practice-norm-solution
# fails: practice-norm-test
def global_norm(tree):
    # Recurses through dictionaries only: a list, a tuple or a registered class is squared as if it were an array.
    def sum_of_squares(node):
        if isinstance(node, dict):
            return sum(sum_of_squares(value) for value in node.values())
        return jnp.sum(jnp.asarray(node) ** 2)
    return jnp.sqrt(sum_of_squares(tree))
