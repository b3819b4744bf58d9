"""The solver: the best formula for a round, in PHP's own number semantics.

Pure (numpy and `rules` only): no discord, database, Docker or evaluator.
"""
