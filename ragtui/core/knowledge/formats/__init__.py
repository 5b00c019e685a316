"""The built-in document loaders, one module per format, each registering its
``DocumentLoader`` (core/registry/loaders.py) when imported."""
