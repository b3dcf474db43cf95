"""The camera referee: follows the hand from what the camera and the call buttons report and judges it.

* :mod:`controller.referee.core` — :class:`~controller.referee.core.Referee`, pure and synchronous:
  ``feed(event) -> [event]``, ``tick``, ``result``; a judge's correction replays the corrected record;
* :mod:`controller.referee.state` — ``RefereeState``: all the referee's state for a hand, in typed parts;
* :mod:`controller.referee.dispatch`, :mod:`~controller.referee.table`, :mod:`~controller.referee.timing` —
  one input's path: it waits, or what time made due is acted on and its row of the table
  (input type, mode) → handler handles it;
* the concerns: :mod:`~controller.referee.setup`, :mod:`~controller.referee.ponds` (pure),
  :mod:`~controller.referee.discards`, :mod:`~controller.referee.turn`, :mod:`~controller.referee.claims`,
  :mod:`~controller.referee.ending`, :mod:`~controller.referee.racks`, :mod:`~controller.referee.variants`,
  :mod:`~controller.referee.questions` and :mod:`~controller.referee.answers`,
  :mod:`~controller.referee.corrections`, :mod:`~controller.referee.effects`;
* :mod:`controller.referee.verdicts` — the claim windows, the referee's own codes, verdicts in Russian and
  English;
* :mod:`controller.referee.view` — the public projection of a refereed hand (no hidden information).

The package imports nothing itself (no import cycle through it): ``from controller.referee.core import Referee``.
"""
