"""1835 rules that differ from the core, one module per rule (style guide §7)."""
