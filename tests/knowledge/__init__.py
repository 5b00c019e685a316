"""Tests of the knowledge base in its real formats (core/knowledge)."""
