"""Built-in offline models: a pattern-based memory extractor and a simple chat responder."""
