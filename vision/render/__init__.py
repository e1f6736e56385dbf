"""A synthetic table: the mat with tiles and real pieces seen by a tilted camera.

Used by the tests and the benchmark; every rendered frame carries its ground truth.
"""
