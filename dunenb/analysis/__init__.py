"""dunenb.analysis."""
