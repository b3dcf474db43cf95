"""The tournament hall service: seating draws, session timers, standings and score protocols for many
tables, over the hall's message broker. (Arrives with its own issue.)"""
