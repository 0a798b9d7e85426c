"""Superhero Gladiators: design heroes (attributes, traits, powers and their cost)."""
