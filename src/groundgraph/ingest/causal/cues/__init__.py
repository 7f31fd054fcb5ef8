"""Causal cue tables: what a cue is (``table``) and one module per language or family."""
