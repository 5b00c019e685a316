"""The record: the SQLite store, its schema and migrations, and exports."""
