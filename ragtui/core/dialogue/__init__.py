"""Dialogue: the engine, one dialogue's state machine, the simulated customer, events, transcripts."""
