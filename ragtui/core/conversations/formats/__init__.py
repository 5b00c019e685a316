"""The built-in conversation loaders, one module per format, each registering its
``ConversationLoader`` (core/registry/conversation_loaders.py) when imported."""
