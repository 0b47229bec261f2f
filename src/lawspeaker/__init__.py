"""lawspeaker: adjudicator and rules engine for DP-based Diplomacy variants."""
