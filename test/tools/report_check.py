#!/usr/bin/env python3
"""Checks an `arcoll report` page rendered by headless Chromium (report_render.sh).

--dom: the DOM after the scripts ran (chromium --dump-dom); --log: Chromium's
stderr (--enable-logging=stderr): any console message is a failure; --html /
--json: the page and `arcoll report --json`; --summary: `arcoll summary`'s
output; --expect: the plots that must have rendered (ids plot-<name>);
--loaded-rank R: rank R must have caused the most waiting.
"""
import argparse
import html
import json
import re
import sys

fails = []


def check(ok, msg):
    if not ok:
        fails.append(msg)
    return ok


def main():
    ap = argparse.ArgumentParser()
    for a in ("--html", "--json", "--dom", "--log", "--summary", "--expect"):
        ap.add_argument(a, required=True)
    ap.add_argument("--loaded-rank", type=int)
    a = ap.parse_args()
    dom = open(a.dom, encoding="utf-8").read()
    page = open(a.html, encoding="utf-8").read()
    data = json.load(open(a.json))
    expect = sorted(a.expect.split(","))

    m = re.search(r'<pre id="arcoll-report-status"([^>]*)>(.*?)</pre>', dom, re.S)
    if not check(m is not None, "no #arcoll-report-status in the DOM: the page's script did not run"):
        return
    check('data-done="1"' in m.group(1), "the page did not finish rendering (data-done missing)")
    st = json.loads(html.unescape(m.group(2)))
    check(st["errors"] == [], f"JavaScript errors: {st['errors']}")
    check(st["warnings"] == [], f"JavaScript warnings: {st['warnings']}")
    check(sorted(st["expected"]) == expect, f"plots the page drew {sorted(st['expected'])}, expected {expect}")
    check(sorted(st["rendered"]) == expect, f"plots rendered {sorted(st['rendered'])}, expected {expect}")
    for name in expect:
        # The plot's container up to the next container or section.
        pm = re.search(r'<div class="plot" id="plot-%s"[^>]*>(.*?)(?=<div class="plot" id="plot-|<h2|<pre id=)' % name,
                       dom, re.S)
        if check(pm is not None, f"no container plot-{name} in the DOM"):
            svg = pm.group(1)
            check("<svg" in svg, f"plot-{name}: no svg")
            check(svg.count("<path") >= 2, f"plot-{name}: {svg.count('<path')} marks")
    console = [l for l in open(a.log, encoding="utf-8", errors="replace") if ":CONSOLE" in l]
    check(console == [], "console messages in Chromium's log:\n" + "".join(console[:10]))

    # The data embedded in the page is the --json data, and agrees with the trace's summary.
    em = re.search(r'<script type="application/json" id="arcoll-report-data">(.*?)</script>', page, re.S)
    check(em is not None and json.loads(em.group(1)) == data, "the page's embedded data differs from --json")
    summ = open(a.summary).read()
    sm = re.search(r"(\d+) collective calls .* (\d+) point-to-point messages .* in (\d+) communication steps", summ)
    if check(sm is not None, f"cannot parse arcoll summary: {summ[:300]}"):
        t = data["trace"]
        check(t["collective_calls"] == int(sm.group(1)), f"collective calls {t['collective_calls']} vs summary {sm.group(1)}")
        check(t["p2p_messages"] == int(sm.group(2)), f"p2p messages {t['p2p_messages']} vs summary {sm.group(2)}")
        check(t["steps"] == int(sm.group(3)), f"steps {t['steps']} vs summary {sm.group(3)}")
        check(sum(s["events"] for s in data["callsites"]) == t["collective_calls"], "call-site events != calls")
        # Heatmap: per shown site, `shown` calls, each with distinct ranks,
        # and at least the site's own events.
        calls, cells = {}, {}
        for c in data["skew"]["cells"]:
            calls.setdefault(c["s"], set()).add(c["c"])
            cells.setdefault((c["s"], c["c"]), []).append(c["r"])
        for s in data["skew"]["sites"]:
            check(len(calls.get(s["id"], ())) == s["shown"], f"skew site {s['id']}: calls != shown {s['shown']}")
            if s["shown"] == s["instances"]:
                n = sum(len(v) for k, v in cells.items() if k[0] == s["id"])
                ev = data["callsites"][s["id"]]["events"]
                check(n >= ev, f"skew site {s['id']}: {n} cells < its {ev} events")
        check(all(len(v) == len(set(v)) for v in cells.values()), "a rank twice in one heatmap column")
        check(len(data["wait_cause"]["ranks"]) == t["ranks"], "wait_cause ranks != trace ranks")
        # Every call site `arcoll summary` lists: same events and time in call.
        unit = {"s": 1.0, "ms": 1e-3, "us": 1e-6}
        # names may hold spaces: "file.c:12 (main) [app+0x1560]" (profiler/callsite.hpp)
        listed = re.findall(r"^\s+(\d+)\. (\w+) at (.+?): ([\d.]+) (s|ms|us) in (\d+) calls", summ, re.M)
        check(len(listed) > 0, "no call site in arcoll summary")
        for i, op, site, val, u, n in listed:
            c = data["callsites"][int(i) - 1]
            check(c["label"] == f"{op} at {site}", f"call site {i}: {c['label']} vs summary {op} at {site}")
            check(c["events"] == int(n), f"call site {i}: {c['events']} events vs summary {n}")
            check(abs(c["time_in_call_s"] - float(val) * unit[u]) <= 6e-4 * unit[u] + 1e-9,
                  f"call site {i}: time in call {c['time_in_call_s']} vs summary {val} {u}")
    if a.loaded_rank is not None:
        ranks = data["wait_cause"]["ranks"]
        top = max(ranks, key=lambda r: r["caused_s"])
        check(top["rank"] == a.loaded_rank, f"rank {top['rank']} caused the most waiting, expected the loaded "
                                            f"rank {a.loaded_rank}: {ranks}")
    if data["placement"] is not None:
        check(data["placement"]["links"] != [], "placement without loaded links")


main()
for f in fails:
    print("report_check: FAIL:", f)
if not fails:
    print("report_check: OK")
sys.exit(1 if fails else 0)
