"""Simulation runners and statistics."""
