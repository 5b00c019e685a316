"""ragtui.toml and its parts: the project settings, each file format declared once as a dataclass
and read against it (and the one translation of a problem into a line naming the file, the table
and the key), the bot table, expectation items, TOML reading and writing, and where ragtui keeps
its files."""
