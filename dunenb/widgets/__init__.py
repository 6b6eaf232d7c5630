"""dunenb.widgets."""
