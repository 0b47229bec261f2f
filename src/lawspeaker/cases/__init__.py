"""Adjudicator test cases: the case-file format and its runner.

``casefile`` reads the format (docs/case-format.md); ``runner`` plays each case
and compares it with its expectations (``lawspeaker datc``), with the heirs
(``heirs``) and Favor Map (``favor``) parts of a case kept apart; ``report`` is
the outcome of one case.
"""
