"""Models and servers: the OpenAI-compatible client, endpoint resolution, the embedded llama.cpp model."""
