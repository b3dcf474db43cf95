"""The camera referee: follows the hand from what the camera and the call buttons report and judges it.

* :mod:`controller.referee.core` — :class:`Referee`, pure and synchronous: ``feed(event) -> [event]``;
* :mod:`controller.referee.verdicts` — the claim windows, the referee's own codes, verdicts in Russian and
  English;
* :mod:`controller.referee.view` — the public projection of a refereed hand (no hidden information).
"""
from controller.referee.core import Referee

__all__ = ["Referee"]
