// Keeps a layer library linkable while it has no sources of its own.
