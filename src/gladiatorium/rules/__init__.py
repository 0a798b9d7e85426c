"""The rules texts, shipped with the package: each ``<slug>.md`` here is a link to
``docs/rules/<slug>.md`` (the one copy people edit), followed when the package is
built, so an installed package carries the texts themselves."""
