#!/usr/bin/env python3
"""Prints the tables of benchmarks/thirdparty.sh from its output directory: table.py OUT WORKLOAD..."""
import json, re, statistics, sys
out, ws = sys.argv[1], sys.argv[2:]
print()
print("Median over the rounds: wall s (x plain); user+sys CPU s (x plain)")
print("| workload | plain | Weft | JFR profile | a-p lock | a-p wall | Weft events, bytes/event | weft analyze s |")
print("|---|---|---|---|---|---|---|---|")
for w in ws:
    t, cpu = {}, {}
    for line in open(f"{out}/{w}/times"):
        f = line.split()
        if len(f) == 4 and not line.startswith("Command"):
            t.setdefault(f[0], []).append(float(f[1]))
            cpu.setdefault(f[0], []).append(float(f[2]) + float(f[3]))
    med = {k: statistics.median(v) for k, v in t.items()}
    cmed = {k: statistics.median(v) for k, v in cpu.items()}
    p = med.get("plain", float("nan"))
    def cell(k):
        if k not in med:
            return "-"
        return f"{med[k]:.2f} ({med[k] / p:.2f}); {cmed[k]:.2f} ({cmed[k] / cmed['plain']:.2f})"
    s = json.load(open(f"{out}/{w}/weft-summary.json"))
    ev = sum(s["events"].values())
    print(f"| {w} | {p:.2f}; {cmed['plain']:.2f} | {cell('weft')} | {cell('jfr')} | {cell('ap-lock')} | {cell('ap-wall')} "
          f"| {ev:,}, {s['bytes_per_event']:.2f} | {med.get('analyze', float('nan')):.2f} |")
print()
print("| workload | Weft lock_contention | Weft condition_wait | Weft join_wait | Weft pool_queue_wait | JFR MonitorEnter | JFR ThreadPark | JFR MonitorWait | a-p lock | a-p wall blocked | JVM blocked / waited (Weft run) |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for w in ws:
    s = json.load(open(f"{out}/{w}/summary.json"))
    wp = s["weft"]["props"]; j = s["jfr"]
    ms = lambda ns: f"{ns / 1e6:,.0f} ms"
    jt = lambda k: f"{ms(j['total_ns'].get(k, 0))} ({j['count'].get(k, 0)})"
    tr = s["truth_weft_run"]["threads"] if s["truth_weft_run"] else {}
    b = sum(v["blocked_ms"] for v in tr.values()); wt = sum(v["waited_ms"] for v in tr.values())
    print(f"| {w} | {ms(wp.get('lock_contention', 0))} | {ms(wp.get('condition_wait', 0))} | {ms(wp.get('join_wait', 0))} "
          f"| {ms(wp.get('pool_queue_wait', 0))} | {jt('JavaMonitorEnter')} | {jt('ThreadPark')} | {jt('JavaMonitorWait')} "
          f"| {ms(s['ap_lock']['total_ns'])} | {ms(s['ap_wall']['waiting_ns'])} | {b:,} ms / {wt:,} ms |")
print()
print("Waits each tool reported / the JVM's blocked+waited time (ThreadMXBean) in the same run:")
print("| workload | Weft (wait properties but io_wait, network_idle) | JFR (MonitorEnter+ThreadPark+MonitorWait) | a-p lock | a-p wall (blocked samples) |")
print("|---|---|---|---|---|")
virtual = []
for w in ws:
    s = json.load(open(f"{out}/{w}/summary.json"))
    r, t = s["reported_ns"], s["jvm_blocked_waited_ns"]
    if w.endswith("-virtual"):
        # The JVM's counters do not see virtual threads: the driver's own timers of the same run
        # (the clients' UPDATEs, where the row-lock waits are, and main's join) stand in for them.
        virtual.append(w)
        t = {}
        for k in r:
            run = s.get("truth_" + k + "_run")
            if run:
                t[k] = (run["timers_ms"].get("update", 0) + run["timers_ms"].get("driver_join", 0)) * 1e6
    c = lambda k: f"{r[k] / 1e9:.2f} s / {t.get(k, 0) / 1e9:.2f} s ({(100 * r[k] / t[k]) if t.get(k) else float('nan'):.0f}%)"
    print(f"| {w} | {c('weft')} | {c('jfr')} | {c('ap_lock')} | {c('ap_wall')} |")
if virtual:
    print(f"({', '.join(virtual)}: against the driver's update and join timers, which the JVM's counters cannot give for virtual threads)")
print()
print("weft verify of each Weft trace (errors and warnings; benchmarks/thirdparty.sh keeps them in OUT/WORKLOAD/verify.txt):")
print("| workload | verdict | errors | warnings |")
print("|---|---|---|---|")
for w in ws:
    try:
        lines = open(f"{out}/{w}/verify.txt").read().splitlines()
    except OSError:
        print(f"| {w} | not run | | |")
        continue
    warnings = errors = 0
    for l in lines:
        more = re.match(r"weft: (warning: )?\.\.\. and (\d+) more (errors|warnings)", l)
        if more:
            n = int(more.group(2))
        else:
            n = 1 if l.startswith("weft: ") else 0
        if l.startswith("weft: warning:") or (more and more.group(3) == "warnings"):
            warnings += n
        else:
            errors += n
    verdict = next((l for l in reversed(lines) if l.startswith("OK")), "not OK")
    print(f"| {w} | {verdict} | {errors} | {warnings} |")
