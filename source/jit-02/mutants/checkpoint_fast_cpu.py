# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 1  # believes the dispatch time: 1.6e10 operations in 40 µs would be 400 TFLOP/s
