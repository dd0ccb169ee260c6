"""The balance lab's plots, hand-written SVG from Python (no library, no CDN): bars with
their 95% intervals, a histogram, and lines over the days. Each function returns markup
safe to put in a page; every text is escaped."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

PALETTE = ("#1f6f8b", "#c0392b", "#2e8b57", "#8e44ad", "#d35400", "#7f8c8d", "#b8860b",
           "#2c3e50", "#e84393", "#16a085", "#6d4c41", "#5c6bc0")  # fmt: skip


def _svg(width: int, height: int, body: list[str], title: str) -> SafeString:
    # every text in ``body`` went through escape()
    return mark_safe(
        f'<svg class="plot" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'role="img" aria-label="{escape(title)}"><title>{escape(title)}</title>'
        + "".join(body)
        + "</svg>"
    )


def interval_bars(rows: Sequence[tuple[str, float, float, float]], title: str) -> SafeString:
    """Horizontal bars (0-100%) for ``(label, rate, low, high)``, each with its interval."""
    left, width, row_h = 150, 300, 26
    height = row_h * len(rows) + 30
    body = []
    for i, (label, rate, low, high) in enumerate(rows):
        y = 10 + i * row_h
        colour = PALETTE[i % len(PALETTE)]
        body.append(f'<text x="{left - 6}" y="{y + 15}" text-anchor="end">{escape(label)}</text>')
        body.append(f'<rect x="{left}" y="{y + 3}" width="{rate * width:.1f}" height="16" '
                    f'fill="{colour}" opacity="0.85"/>')  # fmt: skip
        x1, x2 = left + low * width, left + high * width
        body.append(f'<line x1="{x1:.1f}" x2="{x2:.1f}" y1="{y + 11}" y2="{y + 11}" '
                    'stroke="#000" stroke-width="1.5"/>')  # fmt: skip
        for x in (x1, x2):
            body.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{y + 6}" y2="{y + 16}" '
                        'stroke="#000"/>')  # fmt: skip
        body.append(f'<text x="{left + width + 6}" y="{y + 15}">{rate * 100:.1f}%</text>')
    axis = height - 16
    for tick in (0, 25, 50, 75, 100):
        x = left + tick * width / 100
        body.append(f'<line x1="{x}" x2="{x}" y1="6" y2="{axis}" stroke="#ccc"/>')
        body.append(f'<text x="{x}" y="{axis + 12}" text-anchor="middle">{tick}%</text>')
    return _svg(left + width + 60, height, body, title)


def histogram(counts: Mapping[int, int], title: str, unit: str, count_unit: str) -> SafeString:
    """Vertical bars: how many games for each value (the game length in days), with a y
    axis of counts (0, half, the tallest bar) named ``count_unit``."""
    if not counts:
        return _svg(10, 10, [], title)
    lo, hi = min(counts), max(counts)
    top = max(counts.values())
    values = list(range(lo, hi + 1))
    bar, plot_h, left, head = max(min(40, 420 // len(values)), 8), 150, 58, 22
    base = head + plot_h
    body = [f'<text x="4" y="12">{escape(count_unit)}</text>',
            f'<line class="y-axis" x1="{left}" x2="{left}" y1="{head}" y2="{base}" '
            'stroke="#999"/>']  # fmt: skip
    for fraction in (0, 0.5, 1):
        y = base - fraction * plot_h
        body.append(f'<line x1="{left - 4}" x2="{left + bar * len(values)}" y1="{y:.1f}" '
                    f'y2="{y:.1f}" stroke="#ddd"/>')  # fmt: skip
        body.append(f'<text class="y-tick" x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">'
                    f"{round(top * fraction)}</text>")  # fmt: skip
    for i, value in enumerate(values):
        h = counts.get(value, 0) / top * plot_h
        x = left + i * bar
        body.append(f'<rect x="{x + 1}" y="{base - h:.1f}" width="{bar - 2}" '
                    f'height="{h:.1f}" fill="{PALETTE[0]}"><title>{value} {escape(unit)}: '
                    f"{counts.get(value, 0)}</title></rect>")  # fmt: skip
        body.append(f'<text x="{x + bar / 2}" y="{base + 14}" text-anchor="middle">'
                    f"{value}</text>")  # fmt: skip
    body.append(f'<text x="{left}" y="{base + 30}">{escape(unit)}</text>')
    return _svg(left + bar * len(values) + 10, base + 36, body, title)


def lines(
    series: Mapping[str, Sequence[float]], title: str, unit: str, *, top: float | None = None
) -> SafeString:
    """One polyline per series over the days (0, 1, 2...), with a legend."""
    if not series:
        return _svg(10, 10, [], title)
    days = max(len(v) for v in series.values())
    peak = top or max((max(v) for v in series.values() if v), default=1) or 1
    left, plot_w, plot_h = 40, 360, 160
    step = plot_w / max(days - 1, 1)
    body = [f'<line x1="{left}" x2="{left + plot_w}" y1="{10 + plot_h}" y2="{10 + plot_h}" '
            'stroke="#999"/>']  # fmt: skip
    for fraction in (0, 0.5, 1):
        y = 10 + plot_h - fraction * plot_h
        label = f"{fraction * peak:.2f}" if top is None else f"{fraction * 100:.0f}%"
        body.append(f'<text x="{left - 4}" y="{y + 4}" text-anchor="end">{label}</text>')
    for day in range(days):
        body.append(f'<text x="{left + day * step:.1f}" y="{plot_h + 24}" '
                    f'text-anchor="middle">{day}</text>')  # fmt: skip
    legend_x = left + plot_w + 12
    for i, (name, values) in enumerate(series.items()):
        colour = PALETTE[i % len(PALETTE)]
        points = " ".join(f"{left + d * step:.1f},{10 + plot_h - v / peak * plot_h:.1f}"
                          for d, v in enumerate(values))  # fmt: skip
        body.append(f'<polyline points="{points}" fill="none" stroke="{colour}" '
                    f'stroke-width="2"><title>{escape(name)}</title></polyline>')  # fmt: skip
        y = 14 + i * 16
        body.append(f'<rect x="{legend_x}" y="{y - 9}" width="10" height="10" fill="{colour}"/>')
        body.append(f'<text x="{legend_x + 14}" y="{y}">{escape(name)}</text>')
    body.append(f'<text x="{left}" y="{plot_h + 40}">{escape(unit)}</text>')
    height = max(plot_h + 46, 20 + 16 * len(series))
    return _svg(legend_x + 170, height, body, title)
