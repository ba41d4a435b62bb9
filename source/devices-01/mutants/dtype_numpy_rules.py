# replaces: practice-dtype-solution
# fails: practice-dtype-test
def result_dtype(*operands):
    # NumPy's promotion rules: int32 + float32 -> float64, and Python floats widen integers to float64.
    return np.result_type(*[getattr(op, "dtype", op) for op in operands]).name
