"""Conversations with the chat models, projects, and the one seam to litellm."""
