"""Plain types at the bottom of ragtui: turns, passages, judgments, calls, personas, scenarios,
expectations, stored rows and errors. They import nothing of ragtui."""
