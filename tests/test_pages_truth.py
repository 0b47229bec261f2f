"""What the pages say is true (issue 17): results in the names players know,
orders only for one's own units, pasted forum posts read whole, DP on an
illegal order said to be ignored, and each phase saying what is due."""

from __future__ import annotations

from lawspeaker.service import GameService


def test_results_name_units_as_the_post_does_never_by_key(service: GameService) -> None:
    """'A ida H' and 'F Noa' were internal keys and short names in a post that
    otherwise writes 'Heir Svartalfheim Marry Idavollr'."""
    service.create_game("s9-complete", "saga")
    service.submit("saga", "Dokkalfar", "Heir Svartalfheim Marry Idavollr")
    service.submit("saga", "Vanir", "A Vanaheimr - Noatun\nF Noatun H")
    record = service.process("saga")
    from lawspeaker.export import format_record

    text = format_record(record)
    assert "ordered 'A Idavollr H', not to marry this heir (S9 §10.3 C)" in text
    assert "A Vanaheimr - Noatun: Bounced: cannot dislodge own F Noatun" in text
    assert "'A ida H'" not in text and "F Noa\n" not in text
    svg = str(service.picture("saga", "S1M", orders=True))
    assert "'A Idavollr H'" in svg and "'A ida H'" not in svg
