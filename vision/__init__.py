"""The dice reader: pure functions over numpy arrays (no camera, no threads, time passed in)."""
