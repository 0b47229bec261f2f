"""Reading posts as players paste them from forums and Discord (issue 13 §3)."""

from __future__ import annotations

import pytest

import lawspeaker
from lawspeaker import PhaseKind
from lawspeaker.engine.posts import PostError, decode, read_post

MOVEMENT, ADJUSTMENT = PhaseKind.MOVEMENT, PhaseKind.ADJUSTMENT


def read(variant: lawspeaker.Variant, text: str | bytes, kind: PhaseKind = MOVEMENT,
         power: str | None = None) -> list[tuple[str | None, str]]:
    """(power, order or error) per line, as a GM would read the post back."""
    out = []
    for line in read_post(variant, text, kind, power):
        if line.error is not None:
            out.append((line.power, f"error: {line.error}"))
        else:
            out.append((line.power, str(line.order or line.allocation)))
    return out


def test_a_discord_post_with_bullets_bold_numbers_and_comments(
        standard: lawspeaker.Variant) -> None:
    post = ("\ufeff**England**\n"
            "- F London moves to North Sea   // into the North Sea\n"
            "* F Edi - Nrg\n"
            "• A Lvp - Yor.\n"
            "France orders:\n"
            "1. `A Par - Bur`\n"
            "2) __A Mar S A Par - Bur__\n"
            "```\n"
            "~~F Bre - Eng~~\n"
            "> F Bre - Mao  # changed my mind\n")
    assert read(standard, post) == [
        ("England", "F lon - nth"), ("England", "F edi - nrg"), ("England", "A lvp - yor"),
        ("France", "A par - bur"), ("France", "A mar S A par - bur"), ("France", "F bre - mid")]


def test_a_power_header_may_be_written_many_ways(standard: lawspeaker.Variant) -> None:
    for header in ("Germany", "Germany:", "**Germany**", "Germany orders:",
                   "Germany's orders", "Orders for Germany:", "GERMANY -"):
        assert read(standard, f"{header}\nA Ber - Kie") == [("Germany", "A ber - kie")], header


def test_unknown_power_names_get_did_you_mean(standard: lawspeaker.Variant) -> None:
    """The lines under an unknown header belong to no power: never to the one before."""
    assert read(standard, "England:\nF Lon - Nth\nGermnay:\nA Ber - Kie\nFrnace: A Par H") == [
        ("England", "F lon - nth"),
        (None, "error: unknown power 'Germnay' (did you mean Germany?)"),
        (None, "error: no power for this line: the header on line 3 names no power"),
        (None, "error: unknown power 'Frnace' (did you mean France?)")]


def test_chatter_is_an_error_on_its_line_not_a_silent_drop(standard: lawspeaker.Variant) -> None:
    (line,) = read(standard, "Here are my orders:", power="England")
    assert line[1].startswith("error: 'Here are my orders:' is neither an order nor a power "
                              "header")


def test_negative_fractional_and_zero_dp_are_refused(s9: lawspeaker.Variant) -> None:
    lines = read(s9, "Aesir:\n-1 DP to F Per H\n1.5 DP to F Per H\n0 DP to F Per H\n"
                     "2 DP to F Per H")
    assert [text for _, text in lines[:3]] == [
        f"error: '{n} DP': an allocation is a whole number of DP, at least 1 (S9 §9.0) "
        f"(in '{n} DP to F Per H' at column 1)" for n in ("-1", "1.5", "0")]
    assert lines[3] == ("Aesir", "2 DP to F per H")


def test_orders_for_the_wrong_phase_are_errors_on_their_line(
        standard: lawspeaker.Variant, s9: lawspeaker.Variant) -> None:
    assert read(standard, "Russia: Build A War") == [(
        "Russia", "error: a build is not an order for an orders (movement) phase, which takes "
        "moves, holds, supports, convoys and heirs' orders")]
    assert read(standard, "Russia: A Mos - Ukr", ADJUSTMENT) == [(
        "Russia", "error: a move is not an order for an adjustment phase, which takes builds, "
        "removals and waives")]
    assert read(standard, "Russia: A Mos - Ukr", PhaseKind.RETREAT) == [
        ("Russia", "A mos R ukr")]  # in a retreat phase '-' is a retreat
    assert read(s9, "Aesir: 1 DP to F Per H", ADJUSTMENT) == [(
        "Aesir", "error: DP are allocated only in orders phases, not in a adjustment phase "
        "(S9 §9.0)")]


def test_a_windows_file_is_read_as_cp1252_and_says_so() -> None:
    ood = lawspeaker.load_variant("ood")
    data = "Kalmar Union:\nF Lübeck - Baltic Sea\n".encode("cp1252")
    _, encoding = decode(data)
    assert encoding == "Windows-1252"
    assert read(ood, data) == [("Kalmar Union", "F lub - bal")]


def test_utf16_with_a_byte_order_mark_is_text(standard: lawspeaker.Variant) -> None:
    assert read(standard, "England:\nF Lon H\n".encode("utf-16")) == [("England", "F lon H")]


@pytest.mark.parametrize("data", [b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", bytes(range(256)),
                                  b"\x01\x02\x03\x04\x05\x06 A Par H"])
def test_a_binary_file_is_refused_with_a_clear_error(standard: lawspeaker.Variant,
                                                     data: bytes) -> None:
    with pytest.raises(PostError, match="is a binary file, not text"):
        read_post(standard, data, MOVEMENT)


def test_forum_headers_naming_a_power_and_a_phase_are_skipped(s9: lawspeaker.Variant) -> None:
    """Posts are pasted whole (issue 17): a header that is clearly a header (a
    power, then only words naming a phase) sets the power and is no bad order."""
    post = ("**Aesir — Spring 400 BCE**\nF Asgard - Idavollr\n"
            "Vanir orders for Spring 400 BCE\nA Vanaheimr - Noatun\n"
            "Aesir:\nF Himinbjorg H\n"
            "Orders for Madr, Spring Orders, First Cycle (400 BCE):\nF Midgard H\n"
            "Ymir (Spring 400 BCE)\nF Niflheim H\n")
    lines = read_post(s9, post, MOVEMENT, "Aesir")
    assert [(line.number, line.power, str(line.order), line.error) for line in lines] == [
        (2, "Aesir", "F asg - ida", None), (4, "Vanir", "A van - noa", None),
        (6, "Aesir", "F him H", None), (8, "Madr", "F mid H", None),
        (10, "Ymir", "F nif H", None)]


def test_a_header_is_only_ever_a_power_and_a_phase(s9: lawspeaker.Variant) -> None:
    """Never skip what could be an order: a prefixed order stays an order, and a
    line with a power and anything but phase words is read, and reported."""
    lines = read_post(s9, "Aesir: F Asgard - Idavollr\nAesir - F Asgard H\n"
                      "Aesir Spring attack\n", MOVEMENT, "Vanir")
    assert str(lines[0].order) == "F asg - ida" and lines[0].power == "Aesir"
    assert len(lines) == 3 and lines[1].error and lines[2].error


def test_a_remark_in_parentheses_after_an_order_is_skipped(
        standard: lawspeaker.Variant) -> None:
    """'Build A X (for defence)': the remark is no part of the order; a coast in
    parentheses still is, and a line that is no order without it stays an error."""
    lines = read_post(standard, "England:\nBuild F London (for defence)\n"
                      "Build F St Petersburg (nc) (to go west)\n"
                      "Build F Liverpool (\nBuild (for defence)\n", PhaseKind.ADJUSTMENT)
    assert [str(line.order) for line in lines[:2]] == ["Build F lon", "Build F stp/nc"]
    assert lines[2].error and "missing ')'" in lines[2].error
    assert lines[3].error and lines[3].order is None
