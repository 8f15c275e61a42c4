"""Cameras, buttons and lights behind small protocols, with fakes for machines without them."""
