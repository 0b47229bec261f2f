"""The rule components a variant switches on, one module each.

Each is turned on by a key in the variant's ``components:`` (variant.yaml) or
by a Rules option, and is read by the engine's phases:

========================  ==============================================
module                    switched on by
========================  ==============================================
``dp``                    ``diplomacy_points`` (S9 §9, Dissolution §5)
``neutral_limits``        ``neutral_limits`` (Dissolution §11.4)
``marriages``             ``heirs`` (S9 §10)
``census``                every variant; S9 §2.2 with ``heirs``,
                          victory by points with ``victory_points``
``vp``                    ``victory_points``, ``wings`` (Dissolution)
``favor``                 ``favor_map`` (Dissolution §11; Rules
                          ``favor_board``, ``favor_setup``)
``favor_orders``          ``favor_map`` (the Embassies' orders)
``violations``            ``favor_map`` (violations, kicks, Nuclear
                          Retaliation)
========================  ==============================================

The components use the core and the variant types; they never import the
engine's phases, so a phase can call any of them.
"""
