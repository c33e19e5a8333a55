#!/usr/bin/env python3
"""Puts a workload's attached recording beside its recording from the JVM's start.

usage: attachcompare.py DIR WORKLOAD

DIR holds start.json and attached.json (weft analyze --format json) and start.verify and
attached.verify (weft verify's output, its last line "ok" or "failed"), as
benchmarks/thirdparty-attach.sh writes them. Prints each property's share of the threads' time in
both, marks shares more than 10 points apart, and lists the attached analysis's notes.
"""
import json
import os
import sys

MARK_POINTS = 10.0


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def shares(analysis):
    total = analysis["time_ns"] or 1
    return {p["id"]: (100.0 * p["severity_ns"] / total, p["parent"]) for p in analysis["properties"]}


def verdict(path):
    try:
        with open(path) as f:
            lines = f.read().strip().splitlines()
        return lines[-1] if lines else "?"
    except OSError:
        return "missing"


def main():
    d, workload = sys.argv[1], sys.argv[2]
    start, attached = load(os.path.join(d, "start.json")), load(os.path.join(d, "attached.json"))
    print(f"== {workload}")
    if start is None or attached is None:
        print("   no analysis for", "the start" if start is None else "the attached recording")
        return
    for name, a, t in (("start", start, "start.verify"), ("attached", attached, "attached.verify")):
        tr = a["trace"]
        print(f"   {name:9} status {a['status']}, {tr['events']:,} events, {tr['threads']} threads,"
              f" {tr['duration_ns'] / 1e9:.2f} s; verify {verdict(os.path.join(d, t))}")
    s, at = shares(start), shares(attached)
    marked = 0
    print(f"   {'property':34} {'start %':>8} {'attached %':>10}")
    for pid in list(s) + [p for p in at if p not in s]:
        if pid == "time":
            continue
        a, b = s.get(pid, (0.0, None))[0], at.get(pid, (0.0, None))[0]
        if a < 0.5 and b < 0.5:
            continue
        mark = " <<" if abs(a - b) > MARK_POINTS else ""
        marked += bool(mark)
        print(f"   {pid:34} {a:8.1f} {b:10.1f}{mark}")
    cp_s = ", ".join(f"{e['thread']} {e['ns'] / 1e9:.2f}" for e in start["critical_path"]["by_thread"][:3])
    cp_a = ", ".join(f"{e['thread']} {e['ns'] / 1e9:.2f}" for e in attached["critical_path"]["by_thread"][:3])
    print(f"   critical path, start:    {cp_s}")
    print(f"   critical path, attached: {cp_a}")
    for n in attached.get("notes", []):
        text = n if isinstance(n, str) else n.get("text", json.dumps(n))
        print("   note:", text[:300])
    print(f"   {marked} properties more than {MARK_POINTS:.0f} points apart")


if __name__ == "__main__":
    main()
