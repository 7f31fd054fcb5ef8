"""Derived indexes: rebuilt from the store, never the only copy of anything."""
