"""An example ragtui plugin: one turn metric (``answer_length``) and one bot type (``faq``)."""
