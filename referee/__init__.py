"""The Carolus Magnus rules engine and table referee.

Pure Python: nothing here knows about cameras, pins, displays or the web.
"""
