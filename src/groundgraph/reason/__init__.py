"""Reasoning on top of the graph: checking claims against the facts it holds.

``relations`` is the relation verifier: proofs for multi-hop relation claims, Katz
confidence, calibration, conformal thresholds, Horn rules and composition tables.
"""
