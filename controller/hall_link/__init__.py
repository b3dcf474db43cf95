"""The table's side of the tournament hall: the outbox in the event store (``outbox.py``), the MQTT link
(``link.py``), what the table service calls (``attach.py``: :func:`~controller.hall_link.attach.attach`) and
the simulated tables of ``hall simulate`` (issue #19).
"""
