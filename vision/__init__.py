"""The camera side: camera sources, calibration, tile finding, the ONNX tile classifier, scene parsing
and tracking into observation events (``rules.events``)."""
