"""Each rule system's optional CLI module, ``cli/systems/<package>.py``: parsers for its own inputs."""
