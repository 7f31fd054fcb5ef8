"""Evaluation: dataset loaders and runners. Never imported by search or reason."""
