"""The rule-system kernel: the registry, commands, and what every unit of resolution shares."""
