"""ipywidgets + bqplot views. Widgets hold no rules: they observe a state and call engine functions."""
