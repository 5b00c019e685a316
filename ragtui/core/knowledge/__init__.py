"""The knowledge base in its real formats: a folder of help articles (Markdown, text, HTML,
PDF, CSV and JSON FAQs, or a plugin's format) read into documents, cut into passages that keep
where they came from, and indexed for the built-in bot's retrieval."""
