"""Adjudicator test cases: the case-file format and its runner.

``casefile`` reads the format (docs/case-format.md); ``runner`` plays each case
and compares it with its expectations (``lawspeaker datc``). A ``context`` holds
the case, its variant, rules and report and reads its names; ``previous`` rebuilds
the phase before from ``PRESTATE_RESULTS``; the heir and vassal sections
(``heirs``) and the Favor Map sections (``favor``) have handlers of their own,
which the runner calls when the case has them; ``report`` is the outcome of one case.
"""
