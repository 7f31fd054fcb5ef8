"""Walks over the graph: scores and the paths that explain them."""
