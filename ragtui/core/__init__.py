"""Engine, metrics, store and clients. Nothing below this package imports Textual."""
