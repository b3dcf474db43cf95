"""Rule profiles: one module per rule set, looked up by name through :func:`rules.profiles.registry.get`."""
