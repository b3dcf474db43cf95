"""The pure rules engine: tiles, notation, hand shapes, waits, shanten, walls, the game state machine,
the event schema (``rules.events``) and one profile module per rule set (``rules.profiles``).

Nothing here touches hardware, files or the network, and nothing here imports another package of ours.
"""
