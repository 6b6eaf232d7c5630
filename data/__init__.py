"""Rules data shipped as the ``dunenb.data`` package (see pyproject.toml: package-dir)."""
