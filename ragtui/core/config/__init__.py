"""ragtui.toml and its parts: the project settings, what the file may say (pydantic models, and the
one translation of their errors into a line naming the file, the table and the key), the bot
table, expectation items, TOML reading and writing, and where ragtui keeps its files."""
