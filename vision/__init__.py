"""The camera side: camera sources, calibration, tile finding, the ONNX tile classifier, scene parsing
and tracking into observation events (``rules.events``)."""
import os

# onnxruntime >= 1.29 sends telemetry from Linux too (a DNS query for mobile.events.data.microsoft.com some
# seconds after a session is made, seen with strace on 1.32); the table has no network beyond its hall and must
# not try. The variable is read once, when onnxruntime starts: set here, before any module of ours imports it.
os.environ["ORT_DISABLE_TELEMETRY"] = "1"
