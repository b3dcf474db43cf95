"""Unit, property and integration tests. ``MT_TEST_SIZE=long`` (``make test-long``) runs them at full size."""
