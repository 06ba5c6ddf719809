"""1835 (Meier-Bachl, Tresham): data, options and, later, the rules that differ from the core."""
