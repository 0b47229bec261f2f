"""The starting ``variant.yaml`` of ``lawspeaker variant new NAME --base VARIANT``.

It extends the base by name (or by a folder relative to the new one), switches on
the components the base does (a ``components:`` here replaces the base's list) and
lists every other component, commented out, with the rulebook it comes from and
the keys it reads; each such key follows, commented, with a starting value from
the base's map (every neutral centre under ``minors:``). As written it passes
``lawspeaker map check``: it is the base under a new name.
"""

from __future__ import annotations

from .model import Variant

__all__ = ["COMPONENT_NOTES", "variant_yaml"]

COMPONENT_NOTES: dict[str, str] = {
    "minor_powers": "S9 §9.0: a stationary minor power's unit on every neutral centre; "
                    "reads minors:",
    "diplomacy_points": "S9 §9, Dissolution §5: players order the neutral units with "
                        "secret DP; needs minor_powers; dp_allotment: chooses the allotment",
    "heirs": "S9 §6-§10: heirs, marriages, thralls, vassals, the Census; needs "
             "minor_powers and diplomacy_points; reads heirs:",
    "wings": "Dissolution §3.3: W units, stationary air bases",
    "nuclear_powers": "Dissolution §8: invulnerable neutral nuclear units ordered by DP; "
                      "reads nuclear: and each power's favor:",
    "victory_points": "Dissolution §1.4, §4.2: centres worth VP (sc: in map.yaml), "
                      "units = half the VP rounded up",
    "neutral_limits": "Dissolution §9, §11.4.1: Cohesion, Prejudice, the Favor cap; "
                      "needs diplomacy_points",
    "favor_map": "Dissolution §11: the Favor Map from favor.yaml; needs nuclear_powers",
}
"""Each component in the order ``variant new`` lists them, with its origin and keys."""


def _block(lines: list[str], commented: bool) -> list[str]:
    return [("# " + line if commented else line) for line in lines]


def variant_yaml(name: str, base_ref: str, base: Variant, base_keys: set[str]) -> str:
    """The text of the new ``variant.yaml``: ``name`` extends ``base`` (named
    ``base_ref``, whose ``variant.yaml`` sets ``base_keys`` itself or through its bases)."""
    out = [
        f"# {name}: a variant of {base.title}, started by `lawspeaker variant new`.",
        "# Every top-level key not set here is taken whole from the base (a key set here",
        "# replaces the base's whole value). Uncomment what you need, then run",
        "#   lawspeaker map check FOLDER      (this file's folder)",
        "# The keys, and which component reads each: docs/variant-format.md.",
        f"name: {name}",
        f'title: "{name}"',
        f"base: {base_ref}{' ' * max(1, 25 - len(base_ref))}# a bundled variant's name, or a "
        "folder relative to this file",
        "",
        "components:                    # the rule components this variant switches on",
    ]
    for component, note in COMPONENT_NOTES.items():
        on = base.uses(component)
        item = f"  - {component}"
        tag = "(the base's) " if on else ""
        out.append(f"{'' if on else '# '}{item:<28} # {tag}{note}")
    out.append("")
    if "expect" in base_keys:
        out += ["# expect: the base's counts, which map check verifies; when this variant "
                "changes them,", "# set its own here (expect: {} checks none)", ""]
    homes = {h for p in base.powers.values() for h in p.homes}
    neutral = [k for k, p in base.map.provinces.items() if p.is_sc and k not in homes]
    if "minors" in base_keys:
        out.append(f"# minors: the base's {len(base.minors)} minor powers (set it here to "
                   "replace them all)")
    elif neutral:
        out.append("# minors:                       # with minor_powers: every neutral centre, "
                   "its unit A or F (S9 §9.0)")
        out += [f"#   {k}: A" for k in neutral]
    out.append("")
    if "dp_allotment" in base_keys:
        out.append("# dp_allotment: the base's, by units (set it here to replace it)")
    else:
        out += [
            "# The DP allotment (with diplomacy_points). Without dp_allotment: S9 §9.2 (OOD §9.2):",
            "# 1 DP for holding the power's own capital, 1 for an unmarried heir there, 1 per",
            "# thrall or vassal. With it, by units (Dissolution §5.2-§5.3):",
            "# dp_allotment:",
            "#   per_unit: 1                  # DP per unit on the map",
            "#   unit_cap: 4                  # at most this many from units",
            "#   oil: 1                       # more for holding any centre with flags: [oil]",
            "#   minimum: 1                   # at least this many",
            "#   exile: 1                     # a Player in Exile's DP (with victory_points)",
        ]
    out.append("")
    if "heirs" not in base_keys:
        capitals = [(p.name, p.capital) for p in base.powers.values() if p.capital]
        out.append("# heirs:                        # with heirs: where each power's heir starts, "
                   "its capital or a minor's centre (S9 §6, OOD §6)")
        out += [f"#   {power}: {capital}" for power, capital in capitals]
        out.append("")
    if "nuclear" not in base_keys:
        out += _block([
            "nuclear:                       # with nuclear_powers (Dissolution §8)",
            "  Example Power:",
            "    abbreviation: EP",
            '    colour: "#505050"',
            "    territories: []            # provinces that never change hands (§6.1)",
            "    units: []                  # e.g. [A xyz]; invulnerable (§3.8), stationary "
            "unless mobile: true",
        ], True)
        out.append("")
    if "minor_pairs" not in base_keys:
        out += _block([
            "minor_colours: {}              # with minor_powers: colour -> minors' centres "
            "(Dissolution §3.5; flavour only)",
            "minor_pairs: {}                # with minor_powers: name -> its two centres "
            "(Dissolution §3.5.3)",
        ], True)
    return "\n".join(out).rstrip() + "\n"
