"""Small text utilities with no ragtui dependencies above the plain types: making untrusted text
safe to show, comparing texts, reading a JSON path, and keeping secrets out of what is shown."""
