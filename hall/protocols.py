"""Score protocols: per session and table (CSV and printable HTML, in the spirit of 000 Appendix 2: every
hand's points per player, the session total, penalties, the session result, signatures), and the final
ranking (CSV and HTML). Built from :mod:`hall.standings` only: the profile has already decided the numbers."""
from __future__ import annotations

import csv
import html
import io

from hall.judge_stream import penalty_paid, penalty_taken
from hall.standings import Standings, TableSession, credited

Cell = str | int | float  # one cell of a protocol's table

LABELS = {
    "en": {"protocol": "Score protocol", "session": "Session", "table": "Table", "hand": "Hand",
           "total": "Session total", "penalty": "Penalties", "score": "Session score", "points": "Table points",
           "place": "Place", "signature": "Signature", "judge": "Judge", "ranking": "Final ranking",
           "rank": "Rank", "player": "Player", "sessions": "Sessions", "sum": "Total", "teams": "Team standings"},
    "ru": {"protocol": "Протокол учёта очков", "session": "Сессия", "table": "Стол", "hand": "Сдача",
           "total": "Итого за сессию", "penalty": "Штрафы", "score": "Очки за сессию", "points": "Турнирные очки",
           "place": "Место", "signature": "Подпись", "judge": "Судья", "ranking": "Итоговое положение",
           "rank": "Место", "player": "Игрок", "sessions": "Сессий", "sum": "Сумма", "teams": "Командный зачёт"},
}


def table_rows(ts: TableSession, start_score: int) -> tuple[list[str], list[list[Cell]], dict[str, list[Cell]]]:
    """(players, one row per hand: hand id and the points of each player, summary by player)."""
    index = ts.seat_of()  # a replaced player's hands are his seat's (004 Rules 5.8)
    rows: list[list[Cell]] = []
    for r in ts.hands:
        pts = [0] * len(ts.players)
        for player, d in credited(r, ts.players):
            if player in index:
                pts[index[player]] += d
        rows.append([r["hand"] + (" *" if r["corrected"] else ""), *pts])
    for pen in ts.table_penalties:  # given at the table's console: who lost, who received, the rule, the judge
        ev = pen["event"]
        by_seat = [str(p) for p in pen.get("seats") or pen.get("players") or ts.players]
        pts = [0] * len(ts.players)
        seat = int(ev.get("seat", -1))
        paid = penalty_paid(ev, len(by_seat))
        if 0 <= seat < len(by_seat) and by_seat[seat] in index:
            pts[index[by_seat[seat]]] = -penalty_taken(ev, len(by_seat))
        for s, amount in enumerate(paid):
            if amount and s < len(by_seat) and by_seat[s] in index:
                pts[index[by_seat[s]]] += amount
        what = f"{ev.get('code') or ev.get('reason', '')} ({ev.get('rule', '')}; {ev.get('judge', '')})"
        rows.append([what, *pts])
    by_player = {s.player: s for s in ts.standings}
    summary: dict[str, list[Cell]] = {
        "total": [ts.totals.get(i, start_score) - start_score for i in range(len(ts.players))],
        "penalty": [by_player[p].penalty if p in by_player else 0 for p in ts.players],
        "score": [by_player[p].total if p in by_player else "" for p in ts.players],
        "points": [by_player[p].table_points if p in by_player else "" for p in ts.players],
        "place": [by_player[p].place if p in by_player else "" for p in ts.players],
    }
    return ts.players, rows, summary


def table_csv(ts: TableSession, start_score: int, lang: str = "en") -> str:
    L = LABELS[lang]
    players, rows, summary = table_rows(ts, start_score)
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow([f"{L['session']} {ts.session}", f"{L['table']} {ts.table}"])
    w.writerow([L["hand"], *players])
    w.writerows(rows)
    for key in ("total", "penalty", "score", "points", "place"):
        w.writerow([L[key], *summary[key]])
    return out.getvalue()


def _page(title: str, body: str, lang: str) -> str:
    return (f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
            "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;margin:1em 0}"
            "td,th{border:1px solid #444;padding:.3em .7em;text-align:right}th{background:#eee}"
            "td:first-child,th:first-child{text-align:left}.sig td{height:2.5em;min-width:8em}"
            "@media print{body{margin:0}}</style></head><body>" + body + "</body></html>")


def table_html(ts: TableSession, start_score: int, tournament: str, names: dict[str, str], lang: str = "en") -> str:
    L = LABELS[lang]
    players, rows, summary = table_rows(ts, start_score)
    e = html.escape
    head = "".join(f"<th>{e(names.get(p, p))}<br><small>{e(p)}</small></th>" for p in players)
    body = [f"<h1>{e(L['protocol'])}</h1><p>{e(tournament)} — {e(L['session'])} {ts.session}, "
            f"{e(L['table'])} {e(ts.table)}</p><table><tr><th>{e(L['hand'])}</th>{head}</tr>"]
    body += ["<tr>" + "".join(f"<td>{e(str(c))}</td>" for c in row) + "</tr>" for row in rows]
    for key in ("total", "penalty", "score", "points", "place"):
        body.append(f"<tr><th>{e(L[key])}</th>" + "".join(f"<th>{e(str(v))}</th>" for v in summary[key]) + "</tr>")
    body.append("</table>")
    body.append(f'<table class="sig"><tr><th>{e(L["signature"])}</th>' + "".join(f"<th>{e(p)}</th>" for p in players)
                + f"<th>{e(L['judge'])}</th></tr><tr><td></td>" + "<td></td>" * (len(players) + 1) + "</tr></table>")
    return _page(f"{L['protocol']} {ts.session}/{ts.table}", "".join(body), lang)


def ranking_rows(st: Standings, names: dict[str, str]) -> tuple[list[str], list[list[Cell]]]:
    """The ranking, then the disqualified (rank ``DQ``, out of the ranking: hall/regulations.py)."""
    keys = sorted({k for r in st.ranking for k in r.detail})
    head = ["rank", "player", "name", "sessions", "table_points", "total", *keys]
    rows: list[list[Cell]] = [[r.rank, r.player, names.get(r.player, ""), r.sessions, r.table_points, r.total,
             *[r.detail.get(k, "") for k in keys]] for r in st.ranking]
    rows += [["DQ", p, names.get(p, ""), len(st.records.get(p, [])), "", "", *["" for _ in keys]]
             for p in st.disqualified]
    return head, rows


def team_rows(st: Standings) -> tuple[list[str], list[list[Cell]]]:
    """The team standings (000 line 188), when the players have teams."""
    return (["rank", "team", "members", "table_points", "total"],
            [[x.rank, x.team, " ".join(x.members), x.table_points, x.total] for x in st.teams])


def ranking_csv(st: Standings, names: dict[str, str]) -> str:
    head, rows = ranking_rows(st, names)
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(head)
    w.writerows(rows)
    return out.getvalue()


def ranking_html(st: Standings, names: dict[str, str], tournament: str, lang: str = "en") -> str:
    L = LABELS[lang]
    head, rows = ranking_rows(st, names)
    e = html.escape
    body = [f"<h1>{e(L['ranking'])}</h1><p>{e(tournament)}</p><table><tr>"
            + "".join(f"<th>{e(h)}</th>" for h in head) + "</tr>"]
    body += ["<tr>" + "".join(f"<td>{e(str(c))}</td>" for c in row) + "</tr>" for row in rows]
    body.append("</table>")
    if st.teams:
        head, rows = team_rows(st)
        body.append(f"<h2>{e(L['teams'])}</h2><table><tr>" + "".join(f"<th>{e(h)}</th>" for h in head) + "</tr>")
        body += ["<tr>" + "".join(f"<td>{e(str(c))}</td>" for c in row) + "</tr>" for row in rows]
        body.append("</table>")
    return _page(L["ranking"], "".join(body), lang)
