"""Persistence, projections, settings and randomness for Stakes."""
