"""The lab's report: ``report.html`` from a ``summary.json``, plots inline as SVG.

One page a variant designer reads top to bottom: who finishes on top and who
wins (against the fair share), centres over the years per power with 95%
confidence bands, how often each centre changes hands, and the DP each power
spends and on which neutrals. The page is a Jinja2 template
(``templates/lab_report.html``); the plots are drawn with matplotlib.
"""

from __future__ import annotations

import io
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape

from ..variants import Variant, load_variant

__all__ = ["render_report"]

INK = "#222222"
GRID = "#dddddd"


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    matplotlib.rcParams.update({
        "svg.hashsalt": "lawspeaker",  # the same ids, so the same summary draws the same SVG
        "svg.fonttype": "none", "font.family": "DejaVu Sans", "font.size": 9,
        "axes.edgecolor": "#888888", "axes.grid": True, "grid.color": GRID,
        "axes.spines.top": False, "axes.spines.right": False,
    })
    import matplotlib.pyplot as plt

    return plt


def _svg(fig: Any) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    _pyplot().close(fig)
    text = buf.getvalue()
    return text[text.index("<svg"):]


def _colour(variant: Variant, power: str) -> str:
    return variant.powers[power].colour or "#777777"


def _finishes(variant: Variant, summary: dict[str, Any]) -> str:
    plt = _pyplot()
    powers = sorted(summary["powers"])
    n = summary["games"]
    top = [summary["powers"][p]["top_centres"] / n for p in powers]
    wins = [summary["powers"][p]["wins"] / n for p in powers]
    fig, ax = plt.subplots(figsize=(8, 3.2))
    xs = range(len(powers))
    ax.bar([x - 0.2 for x in xs], top, 0.4, label="most centres (ties count)",
           color=[_colour(variant, p) for p in powers], edgecolor=INK, linewidth=0.6)
    ax.bar([x + 0.2 for x in xs], wins, 0.4, label="solo wins", color="white",
           edgecolor=[_colour(variant, p) for p in powers], hatch="///", linewidth=1.2)
    ax.axhline(1 / len(powers), color=INK, linestyle="--", linewidth=0.8,
               label=f"fair share (1/{len(powers)})")
    ax.set_xticks(list(xs), powers, rotation=30, ha="right")
    ax.grid(axis="x", visible=False)
    ax.set_ylabel("share of games")
    ax.set_ylim(0, max([*top, *wins, 1 / len(powers)]) * 1.15 or 1)
    ax.legend(frameon=False, ncols=3, loc="upper center", bbox_to_anchor=(0.5, 1.18))
    return _svg(fig)


def _centres(variant: Variant, summary: dict[str, Any]) -> str:
    plt = _pyplot()
    by_year = summary["centres_by_year"]
    powers = sorted(summary["powers"])
    cols = 3 if len(powers) > 4 else 2
    rows = -(-len(powers) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(8, 2.0 * rows), sharex=True, sharey=True,
                             squeeze=False)
    xs = list(range(len(by_year["years"])))
    top = max(r["high"] for p in powers for r in by_year[p])
    for i, ax in enumerate(axes.flat):
        if i >= len(powers):
            ax.set_visible(False)
            continue
        power = powers[i]
        rows_ = by_year[power]
        colour = _colour(variant, power)
        ax.fill_between(xs, [r["low"] for r in rows_], [r["high"] for r in rows_],
                        color=colour, alpha=0.25, linewidth=0)
        ax.plot(xs, [r["mean"] for r in rows_], color=colour, linewidth=2)
        ax.plot(xs, [r["mean"] for r in rows_], color=INK, linewidth=0.4)
        ax.set_title(f"{power} ({summary['powers'][power]['bot']})", fontsize=9, loc="left")
        ax.set_ylim(0, top * 1.1 + 0.5)
        ax.xaxis.get_major_locator().set_params(integer=True)
    for ax in axes[-1]:
        ax.set_xlabel("years played")
    for ax in axes[:, 0]:
        ax.set_ylabel("centres")
    fig.tight_layout()
    return _svg(fig)


def _changes(variant: Variant, summary: dict[str, Any]) -> str:
    plt = _pyplot()
    items = sorted(summary["centre_changes"].items(), key=lambda kv: (-kv[1], kv[0]))
    names = [variant.map.provinces[k].name for k, _ in items]
    fig, ax = plt.subplots(figsize=(8, 0.17 * len(items) + 0.8))
    ax.barh(range(len(items)), [v for _, v in items], color="#5b7aa6", height=0.7)
    ax.set_yticks(range(len(items)), names, fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("changes of owner per game (mean)")
    ax.grid(axis="y", visible=False)
    return _svg(fig)


def _dp(variant: Variant, summary: dict[str, Any]) -> str | None:
    plt = _pyplot()
    dp = summary["dp_spent"]
    powers = sorted(dp)
    totals: dict[str, float] = {}
    for p in powers:
        for neutral, v in dp[p]["on"].items():
            totals[neutral] = totals.get(neutral, 0) + v
    if not totals:
        return None
    named = [k for k, _ in sorted(totals.items(), key=lambda kv: (-kv[1], kv[0]))[:11]]
    cmap = plt.get_cmap("tab20")
    fig, ax = plt.subplots(figsize=(8, 0.32 * len(powers) + 1.2))
    left = [0.0] * len(powers)
    for j, neutral in enumerate([*named, "others"]):
        vals = [dp[p]["on"].get(neutral, 0) if neutral != "others" else
                sum(v for k, v in dp[p]["on"].items() if k not in named) for p in powers]
        if not any(vals):
            continue
        ax.barh(range(len(powers)), vals, left=left, height=0.7, label=neutral,
                color="#bbbbbb" if neutral == "others" else cmap(j % 20))
        left = [a + b for a, b in zip(left, vals, strict=True)]
    ax.set_yticks(range(len(powers)), powers)
    ax.invert_yaxis()
    ax.set_xlabel("DP allocated per game (mean), by the neutral power ordered")
    ax.grid(axis="y", visible=False)
    ax.legend(frameon=False, fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return _svg(fig)


def render_report(summary: dict[str, Any], elapsed: float | None = None) -> str:
    """The HTML page for ``summary`` (as :func:`lawspeaker.sim.lab.summarise` gives it)."""
    variant = load_variant(summary["variant"])
    n = summary["games"]
    powers = sorted(summary["powers"])
    rows = [dict(summary["powers"][p], name=p, colour=_colour(variant, p),
                 top_share=summary["powers"][p]["top_centres"] / n,
                 win_share=summary["powers"][p]["wins"] / n) for p in powers]
    ranked = sorted(rows, key=lambda r: (-r["top_share"], r["name"]))
    lowest = [r["name"] for r in ranked if r["top_share"] == ranked[-1]["top_share"]]
    if len(lowest) > 4:
        lowest = [*lowest[:3], f"{len(lowest) - 3} more"]
    changes = sorted(summary["centre_changes"].items(), key=lambda kv: (-kv[1], kv[0]))
    env = Environment(loader=PackageLoader("lawspeaker.sim", "templates"),
                      autoescape=select_autoescape(["html"]))
    return env.get_template("lab_report.html").render(
        s=summary, variant=variant, rows=rows, ranked=ranked, fair=1 / len(powers),
        lowest=", ".join(lowest), mixed=len(set(summary["bots"].values())) > 1,
        hot=[(variant.map.provinces[k].name, v) for k, v in changes[:5]],
        cold=[(variant.map.provinces[k].name, v) for k, v in changes[::-1][:5]],
        finishes_svg=_finishes(variant, summary), centres_svg=_centres(variant, summary),
        changes_svg=_changes(variant, summary), dp_svg=_dp(variant, summary),
        elapsed=elapsed)
