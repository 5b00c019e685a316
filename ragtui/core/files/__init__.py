"""Writing files: the atomic write every file ragtui writes goes through, and the guard for
files a person asked for (reports, exports), which refuses to overwrite a database."""
