"""The adjudicator every variant shares.

The map (geography), the position (board), orders and their notation, the
results, the Rules options (ruleset), legality, convoy routes and the movement
resolver (resolver, resolver_plan, resolver_report). Nothing here knows a
variant's files or a rule component: it is the bottom layer, and every other
part of lawspeaker builds on it (tests/test_architecture.py keeps it so).
"""
