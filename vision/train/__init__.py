"""Training of the tile classifier (needs the ``[train]`` extra; see README.md). Never imported at run time."""
