#!/usr/bin/env python3
"""Puts side by side what Weft, JFR and async-profiler saw in one run of a third-party workload.

usage: compare.py DIR WORKLOAD THREAD_PREFIX[,PREFIX...]

DIR holds, per tool, the files benchmarks/thirdparty.sh wrote:
  weft.json (weft analyze --format json), weft.out (the program's stdout under Weft),
  jfr.jfr, ap-lock.collapsed (async-profiler event=lock, collapsed,total: ns per stack),
  ap-wall.collapsed (event=wall,interval=5ms,threads), plain.out (stdout of the plain run: truth).
Writes DIR/summary.json and prints the top waits of each tool.
"""
import collections
import json
import os
import subprocess
import sys

WALL_INTERVAL_NS = 5_000_000
JDK = ("java/", "jdk/", "sun/", "java.", "jdk.", "sun.")
BLOCKING_NATIVE = ("futex", "pthread_cond", "PlatformEvent::park", "PlatformMonitor::wait",
                   "ObjectMonitor::", "Parker::park", "sem_wait", "pthread_clockjoin", "JVM_MonitorWait")
# Innermost native frames of a thread blocked in the kernel on I/O (sockets, selectors, files).
IO_NATIVE = ("epoll_wait", "Net_poll", "SocketDispatcher_read", "FileDispatcherImpl_read", "__libc_recv",
             "__libc_read", "__poll", "__GI___poll", "recvfrom", "NioSocketImpl.park", "EPoll.wait")


def site_of(frames):
    """frames innermost first: (first non-JDK frame, innermost JDK Java frame it called)."""
    api = None
    for f in frames:
        if "/" not in f and "." not in f.split("(")[0]:
            continue  # native frame
        if f.startswith(JDK):
            if api is None:
                api = f
            continue
        return f, api
    return (frames[-1] if frames else "?"), api


def short(f):
    if f is None:
        return "-"
    f = f.replace("/", ".")
    parts = f.split(".")
    return ".".join(parts[-2:]) if len(parts) > 2 else f


def weft(d):
    j = json.load(open(f"{d}/weft.json"))
    props = {p["id"]: p for p in j["properties"]}
    out = {"time_ns": j["time_ns"], "props": {}, "top": []}
    for pid in ("lock_contention", "monitor_contention", "lock_api_contention", "condition_wait",
                "join_wait", "barrier_wait", "spin_wait", "idle_threads", "limited_parallelism",
                "thread_management", "pool_queue_wait", "work_imbalance", "io_wait", "network_idle",
                "task_queue_idle"):
        if pid in props:
            out["props"][pid] = props[pid]["severity_ns"]
    for pid in ("monitor_contention", "lock_api_contention", "condition_wait", "join_wait",
                "barrier_wait", "spin_wait", "idle_threads", "limited_parallelism", "pool_queue_wait",
                "io_wait", "network_idle", "task_queue_idle"):
        p = props.get(pid)
        if not p:
            continue
        for c in p["by_callpath"]:
            if c["severity_ns"] > 0:
                out["top"].append((c["severity_ns"], pid, " > ".join(c["path"]) or "(root)"))
    out["top"].sort(reverse=True)
    out["notes"] = j.get("notes", [])
    return out


def jfr(d, prefixes):
    types = ["jdk.JavaMonitorEnter", "jdk.ThreadPark", "jdk.JavaMonitorWait", "jdk.ThreadSleep",
             "jdk.SocketRead", "jdk.FileRead"]
    raw = subprocess.run([os.environ.get("JFR", "jfr"), "print", "--json", "--stack-depth", "24", "--events", ",".join(types),
                          f"{d}/jfr.jfr"], capture_output=True, text=True, check=True).stdout
    evs = json.loads(raw)["recording"]["events"]
    tot = collections.Counter()
    cnt = collections.Counter()
    sites = collections.Counter()
    for e in evs:
        v = e["values"]
        th = (v.get("eventThread") or {}).get("javaName") or "?"
        if not th.startswith(tuple(prefixes)):
            continue
        dur = v["duration"]  # PT0.026337179S
        secs = 0.0
        s = dur[2:-1]
        if "M" in s:
            m, s = s.split("M")
            secs += 60 * float(m)
        secs += float(s or 0)
        ns = int(secs * 1e9)
        t = e["type"].split(".")[1]
        tot[t] += ns
        cnt[t] += 1
        frames = []
        for f in (v.get("stackTrace") or {}).get("frames", []):
            m = f["method"]
            frames.append(f'{m["type"]["name"]}.{m["name"]}:{f.get("lineNumber", "")}')
        site, api = site_of(frames)
        sites[(t, short(site), short(api))] += ns
    return {"total_ns": dict(tot), "count": dict(cnt),
            "top": sorted(((ns, *k) for k, ns in sites.items()), reverse=True)}


def ap_lock(d, prefixes):
    tot = 0
    sites = collections.Counter()
    for line in open(f"{d}/ap-lock.collapsed"):
        stack, n = line.rstrip("\n").rsplit(" ", 1)
        frames = stack.split(";")
        lock_cls = frames[-1]
        inner = list(reversed(frames[:-1]))
        site, api = site_of(inner)
        tot += int(n)
        sites[(short(site), short(api), lock_cls)] += int(n)
    return {"total_ns": tot, "top": sorted(((ns, *k) for k, ns in sites.items()), reverse=True)}


def ap_wall(d, prefixes):
    per_thread = collections.Counter()
    waiting = collections.Counter()
    io = collections.Counter()
    sites = collections.Counter()
    for line in open(f"{d}/ap-wall.collapsed"):
        stack, n = line.rstrip("\n").rsplit(" ", 1)
        frames = stack.split(";")
        th = frames[0].strip("[]").rsplit(" tid=", 1)[0]
        if th == "DestroyJavaVM":
            th = "main"
        if not th.startswith(tuple(p[:15] for p in prefixes)):
            continue
        n = int(n)
        per_thread[th] += n
        if any(k in f for f in frames[-6:] for k in IO_NATIVE):
            io[th] += n
        elif any(k in f for f in frames[-6:] for k in BLOCKING_NATIVE):
            waiting[th] += n
            site, api = site_of(list(reversed(frames[1:])))
            sites[(short(site), short(api))] += n
    return {"thread_ns": sum(per_thread.values()) * WALL_INTERVAL_NS,
            "waiting_ns": sum(waiting.values()) * WALL_INTERVAL_NS,
            "io_ns": sum(io.values()) * WALL_INTERVAL_NS,
            "top": sorted(((n * WALL_INTERVAL_NS, *k) for k, n in sites.items()), reverse=True)}


def weft_waits(d, prefixes):
    """Weft's waits on the driver's threads (names starting with a prefix), as the JVM's counts are:
    the exclusive per-thread severities of every property under time but execution, spin_wait and
    the network waits, less the thread starts (thread_management's start_ns, the starting thread
    is RUNNABLE while the JVM makes the thread)."""
    j = json.load(open(f"{d}/weft.json"))
    parent = {p["id"]: p.get("parent", "") for p in j["properties"]}

    def under_time(pid):
        while pid:
            if pid == "time":
                return True
            pid = parent.get(pid, "")
        return False

    left_out = {"time", "execution", "spin_wait", "io_wait", "network_idle"}
    total = 0
    for p in j["properties"]:
        if p["id"] in left_out or not under_time(p["id"]):
            continue
        total += sum(t["severity_ns"] for t in p.get("by_thread", [])
                     if t["thread"].startswith(tuple(prefixes)))
    tm = next((p for p in j["properties"] if p["id"] == "thread_management"), None)
    return total - (tm.get("causes", {}).get("start_ns", 0) if tm else 0)


def truth(path):
    for line in reversed(open(path).read().splitlines()):
        if line.startswith("{"):
            return json.loads(line)
    return None


def ms(ns):
    return f"{ns / 1e6:,.0f} ms"


def main():
    d, workload, prefixes = sys.argv[1], sys.argv[2], sys.argv[3].split(",")
    s = {"workload": workload, "weft": weft(d), "jfr": jfr(d, prefixes), "ap_lock": ap_lock(d, prefixes),
         "ap_wall": ap_wall(d, prefixes)}
    for v in ("plain", "weft", "jfr", "ap-lock", "ap-wall"):
        s["truth_" + v.replace("-", "_") + "_run"] = truth(f"{d}/{v}.out")
    # Waits each tool reported on the driver's threads, against the JVM's own blocked + waited time
    # of the same threads in the same run. Weft's network waits (io_wait, network_idle) are left
    # out: the JVM counts those threads RUNNABLE; they are compared with the driver's own read
    # timer below. So are its thread starts (see weft_waits).
    w = s["weft"]
    network = w["props"].get("io_wait", 0) + w["props"].get("network_idle", 0)
    s["reported_ns"] = {
        "weft": weft_waits(d, prefixes),
        "jfr": sum(s["jfr"]["total_ns"].get(k, 0) for k in ("JavaMonitorEnter", "ThreadPark", "JavaMonitorWait")),
        "ap_lock": s["ap_lock"]["total_ns"], "ap_wall": s["ap_wall"]["waiting_ns"]}
    s["jvm_blocked_waited_ns"] = {}
    for k in s["reported_ns"]:
        t = s["truth_" + k + "_run"]
        if t:
            s["jvm_blocked_waited_ns"][k] = sum(x["blocked_ms"] + x["waited_ms"] for x in t["threads"].values()) * 1_000_000
    json.dump(s, open(f"{d}/summary.json", "w"), indent=1)
    print(f"== {workload}: top waits per tool (threads {','.join(prefixes)} for JFR/async-profiler)")
    w = s["weft"]
    print("  Weft: " + ", ".join(f"{k} {ms(v)}" for k, v in w["props"].items() if v))
    for ns, pid, path in w["top"][:6]:
        print(f"    {ms(ns):>12}  {pid:<20} {path}")
    j = s["jfr"]
    print("  JFR (profile, >=10/20 ms): " + ", ".join(f"{k} {ms(v)} ({j['count'][k]} ev)" for k, v in j["total_ns"].items()))
    for ns, t, site, api in j["top"][:6]:
        print(f"    {ms(ns):>12}  {t:<16} {site}  (via {api})")
    a = s["ap_lock"]
    print(f"  async-profiler lock: {ms(a['total_ns'])}")
    for ns, site, api, cls in a["top"][:5]:
        print(f"    {ms(ns):>12}  {site}  (via {api}) on {cls}")
    a = s["ap_wall"]
    print(f"  async-profiler wall: workload threads {ms(a['thread_ns'])}, of it blocked {ms(a['waiting_ns'])}")
    for ns, site, api in a["top"][:6]:
        print(f"    {ms(ns):>12}  {site}  (via {api})")
    off = [n for n in w["notes"] if " off the CPU for " in n or "waiting for a core for" in n]
    jio = {k: v for k, v in j["total_ns"].items() if k in ("SocketRead", "FileRead")}
    print("  blocked in I/O or off the CPU outside waits: JFR "
          + (", ".join(f"{k} {ms(v)} ({j['count'][k]} ev)" for k, v in jio.items()) or "nothing")
          + f"; async-profiler wall in I/O natives {ms(a['io_ns'])}; Weft's notes:")
    for n in off or ["(none)"]:
        print("    " + n[:400])
    t = s["truth_weft_run"]
    if network or jio:
        read = (t or {}).get("timers_ms", {}).get("client.read")
        print(f"  network waits: Weft io_wait {ms(w['props'].get('io_wait', 0))}, network_idle "
              f"{ms(w['props'].get('network_idle', 0))}; JFR SocketRead {ms(jio.get('SocketRead', 0))}"
              + (f"; the driver's client.read timer {read:,.0f} ms" if read is not None else ""))
    for k in ("truth_weft_run",):
        t = s[k]
        if t:
            print(f"  truth ({k}): threads {json.dumps(t['threads'])} timers_ms {json.dumps(t['timers_ms'])}")
    print("  waits reported / JVM blocked+waited of the same run: " + ", ".join(
        f"{k} {ms(v)} / {ms(s['jvm_blocked_waited_ns'].get(k, 0))}" for k, v in s["reported_ns"].items()))


if __name__ == "__main__":
    main()
