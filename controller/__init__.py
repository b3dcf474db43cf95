"""The table service: the table state machine, GPIO devices, the referee, the durable event store,
configuration, the web UI and the ``mahjong-table`` command line."""
