"""Real support conversations read from files: the formats (``formats/``, each a registered
``ConversationLoader``), the mapping of the files' roles to speakers, and the turns a stored
imported session is made of. ``core/runs/importing.py`` redacts and stores them."""
