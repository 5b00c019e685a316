"""Content files: prompts, personas, scenarios and the knowledge base."""
