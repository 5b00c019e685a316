"""ragtui.toml and its parts: the project settings, the bot table, expectation items, TOML reading
and writing, and where ragtui keeps its files."""
