/* Weft report: renders the analysis (and the timeline) embedded in #weft-data.
   Plain browser JavaScript, no libraries, no network. Sections:
   helpers · trees · report page (properties, call paths, threads, regions, notes) · timeline ·
   comparison page · start. */
(function () {
  'use strict';

  // ---- helpers -----------------------------------------------------------------------------------

  function el(tag, attrs) {
    const e = document.createElement(tag);
    if (attrs) {
      for (const k of Object.keys(attrs)) {
        const v = attrs[k];
        if (v === null || v === undefined || v === false) continue;
        if (k === 'text') e.textContent = v;
        else if (k === 'class') e.className = v;
        else e.setAttribute(k, String(v));
      }
    }
    for (let i = 2; i < arguments.length; i++) {
      const c = arguments[i];
      if (c === null || c === undefined) continue;
      e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return e;
  }

  function num(v) {
    const n = Number(v);
    return Number.isFinite(n) ? n : 0;
  }

  /** A duration in ns, with a unit that keeps three significant digits. */
  function fmtNs(ns) {
    ns = num(ns);
    const a = Math.abs(ns);
    const f = (v, u) => (Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 10 ? v.toFixed(1) : v.toFixed(2)) + ' ' + u;
    if (a >= 1e9) return f(ns / 1e9, 's');
    if (a >= 1e6) return f(ns / 1e6, 'ms');
    if (a >= 1e3) return f(ns / 1e3, 'µs');
    return Math.round(ns) + ' ns';
  }

  function fmtPct(p) {
    if (!Number.isFinite(p)) return '–';
    const a = Math.abs(p);
    return (a === 0 ? '0.00' : a < 0.01 ? p.toFixed(3) : p.toFixed(2)) + ' %';
  }

  function fmtCount(n) {
    return num(n).toLocaleString('en-US');
  }

  /** Severity colour: a single-hue sequential ramp (ColorBrewer "Oranges"), light = little, dark = much.
      Lightness alone carries the order, so it reads with any colour vision; values are printed too. */
  const RAMP = [[0xff, 0xf5, 0xeb], [0xfd, 0xd0, 0xa2], [0xfd, 0x8d, 0x3c], [0xd9, 0x48, 0x01], [0x7f, 0x27, 0x04]];
  function severityColor(pct) {
    const t = Math.sqrt(Math.max(0, Math.min(100, num(pct))) / 100) * (RAMP.length - 1);
    const i = Math.min(RAMP.length - 2, Math.floor(t));
    const f = t - i;
    const c = RAMP[i].map((v, k) => Math.round(v + (RAMP[i + 1][k] - v) * f));
    return 'rgb(' + c.join(',') + ')';
  }

  function facts(pairs) {
    const dl = el('dl', { class: 'facts' });
    for (const [k, v, cls] of pairs) {
      if (v === null || v === undefined || v === '') continue;
      dl.append(el('div', null, el('dt', { text: k }), el('dd', { text: v, class: cls })));
    }
    return dl;
  }

  function traceFacts(a) {
    const t = a.trace || {};
    const w = t.window || {};
    // status: complete | cut | partial (older documents have only trace.complete)
    const status = a.status ? String(a.status) : t.complete === false ? 'cut' : t.complete === true ? 'complete' : '';
    const complete = status === '' ? '' : status === 'complete' ? 'yes' :
      'no: ' + status + (a.status_detail ? ' — ' + a.status_detail : status === 'cut' ? ': the trace was cut off' : '');
    return facts([
      ['trace', t.path],
      ['duration', t.duration_ns !== undefined ? fmtNs(t.duration_ns) : ''],
      ['threads', t.threads !== undefined ? fmtCount(t.threads) : ''],
      ['events', t.events !== undefined ? fmtCount(t.events) : ''],
      ['dropped', t.dropped !== undefined ? fmtCount(t.dropped) : '', num(t.dropped) > 0 ? 'warn' : ''],
      ['window', w.end_ns !== undefined ? fmtNs(num(w.end_ns) - num(w.start_ns)) : ''],
      ['complete', complete, status !== '' && status !== 'complete' ? 'warn' : ''],
      ['CPU allocation time', a.time_ns !== undefined ? fmtNs(a.time_ns) : '']
    ]);
  }

  // ---- trees (WAI-ARIA tree pattern: roving tabindex, arrows, Home/End, selection follows focus) ----

  /**
   * Renders nodes {key, children, expanded} into host as an ARIA tree. cfg.renderRow(node, row, shownExpanded)
   * fills a row; cfg.onSelect(node) and cfg.onToggle(node) report changes.
   */
  function makeTree(host, cfg) {
    const ul = el('ul', { role: 'tree', class: 'tree', 'aria-label': cfg.label });
    host.replaceChildren(ul);
    const tree = { roots: [], selected: null, focused: null, ul: ul };

    function visible() {
      const out = [];
      const walk = (ns) => {
        for (const n of ns) {
          out.push(n);
          if (n.expanded && n.children.length) walk(n.children);
        }
      };
      walk(tree.roots);
      return out;
    }

    function render() {
      const hadFocus = ul.contains(document.activeElement);
      ul.replaceChildren();
      const add = (parentUl, n, level, pos, size) => {
        const li = el('li', {
          role: 'treeitem', tabindex: '-1', 'data-key': n.key, 'aria-level': level,
          'aria-setsize': size, 'aria-posinset': pos, 'aria-selected': n === tree.selected ? 'true' : 'false'
        });
        if (n.children.length) li.setAttribute('aria-expanded', n.expanded ? 'true' : 'false');
        const row = el('div', { class: 'row' });
        row.style.paddingLeft = (level - 1) * 14 + 'px';
        const tw = el('span', { class: 'twisty', 'aria-hidden': 'true', text: n.children.length ? (n.expanded ? '▾' : '▸') : '' });
        row.append(tw);
        cfg.renderRow(n, row);
        li.append(row);
        n.li = li;
        parentUl.append(li);
        if (n.expanded && n.children.length) {
          const g = el('ul', { role: 'group' });
          li.append(g);
          n.children.forEach((c, i) => add(g, c, level + 1, i + 1, n.children.length));
        }
      };
      tree.roots.forEach((n, i) => add(ul, n, 1, i + 1, tree.roots.length));
      const vis = visible();
      let f = tree.focused && vis.includes(tree.focused) ? tree.focused : null;
      if (!f && tree.selected && vis.includes(tree.selected)) f = tree.selected;
      if (!f) f = vis[0] || null;
      tree.focused = f;
      if (f) {
        f.li.tabIndex = 0;
        if (hadFocus) f.li.focus();
      }
    }

    function nodeOf(target) {
      const li = target.closest('li[role="treeitem"]');
      if (!li || !ul.contains(li)) return null;
      return visible().find((n) => n.li === li) || null;
    }

    function focus(n) {
      if (!n) return;
      if (tree.focused && tree.focused.li) tree.focused.li.tabIndex = -1;
      tree.focused = n;
      n.li.tabIndex = 0;
      n.li.focus();
    }

    function select(n, opts) {
      if (tree.focused && tree.focused !== n && tree.focused.li) tree.focused.li.tabIndex = -1;
      tree.selected = n;
      tree.focused = n;
      if (n && n.li) n.li.tabIndex = 0;
      for (const li of ul.querySelectorAll('li[aria-selected="true"]')) li.setAttribute('aria-selected', 'false');
      if (n && n.li) {
        n.li.setAttribute('aria-selected', 'true');
        if (opts && opts.focus) focus(n);
      }
      if (!(opts && opts.silent) && cfg.onSelect) cfg.onSelect(n);
    }

    function toggle(n, expand) {
      if (!n.children.length) return;
      const want = expand === undefined ? !n.expanded : expand;
      if (want === n.expanded) return;
      n.expanded = want;
      tree.focused = n;
      render();
      if (cfg.onToggle) cfg.onToggle(n);
    }

    ul.addEventListener('click', (e) => {
      const n = nodeOf(e.target);
      if (!n) return;
      if (e.target.classList.contains('twisty')) {
        toggle(n);
        focus(n);
        return;
      }
      select(n, { focus: true });
    });
    ul.addEventListener('dblclick', (e) => {
      const n = nodeOf(e.target);
      if (n && !e.target.classList.contains('twisty')) toggle(n);
    });
    ul.addEventListener('keydown', (e) => {
      const n = tree.focused;
      if (!n) return;
      const vis = visible();
      const i = vis.indexOf(n);
      let target = null;
      switch (e.key) {
        case 'ArrowDown': target = vis[i + 1]; break;
        case 'ArrowUp': target = vis[i - 1]; break;
        case 'Home': target = vis[0]; break;
        case 'End': target = vis[vis.length - 1]; break;
        case 'ArrowRight':
          if (n.children.length && !n.expanded) { toggle(n, true); focus(n); }
          else if (n.children.length) target = n.children[0];
          break;
        case 'ArrowLeft':
          if (n.children.length && n.expanded) { toggle(n, false); focus(n); }
          else if (n.parent) target = n.parent;
          break;
        case 'Enter':
        case ' ':
          if (e.key === 'Enter' && n.children.length && tree.selected === n) toggle(n);
          else select(n, { focus: true });
          break;
        default:
          return;
      }
      e.preventDefault();
      if (target) select(target, { focus: true });
    });

    tree.render = render;
    tree.select = select;
    tree.toggle = toggle;
    tree.visible = visible;
    /** Expands every ancestor of n. */
    tree.reveal = (n) => {
      for (let p = n.parent; p; p = p.parent) p.expanded = true;
    };
    tree.setRoots = (roots) => {
      tree.roots = roots;
      tree.selected = null;
      tree.focused = null;
      render();
    };
    return tree;
  }

  // ---- the report page -------------------------------------------------------------------------------

  /** Properties as a tree: inclusive value = severity_ns; exclusive = inclusive − children's inclusive. */
  function propertyForest(analysis) {
    const list = Array.isArray(analysis.properties) ? analysis.properties : [];
    const byId = new Map();
    for (const p of list) {
      if (!p || p.id === undefined || byId.has(String(p.id))) continue;
      byId.set(String(p.id), { key: String(p.id), p: p, children: [], parent: null, expanded: false, incl: num(p.severity_ns) });
    }
    const roots = [];
    for (const n of byId.values()) {
      const parent = n.p.parent === null || n.p.parent === undefined ? null : byId.get(String(n.p.parent));
      if (parent && parent !== n) {
        n.parent = parent;
        parent.children.push(n);
      } else {
        roots.push(n);
      }
    }
    for (const n of byId.values()) {
      n.excl = Math.max(0, n.incl - n.children.reduce((s, c) => s + c.incl, 0));
    }
    return { roots: roots, byId: byId };
  }

  /** A property in task time (summed over tasks): never a share of CPU allocation time. */
  function isTaskTime(n) {
    return !!(n && n.p && n.p.unit && n.p.unit !== 'ns');
  }

  /** The property and, when it is collapsed (shown inclusive), all properties below it. */
  function propertySet(n) {
    const out = [n];
    if (!n.expanded) {
      const walk = (m) => m.children.forEach((c) => { out.push(c); walk(c); });
      walk(n);
    }
    return out;
  }

  /** A trie of call paths from by_callpath entries: excl = severity ending here, incl = subtree. */
  function callTree(props) {
    const roots = [];
    const rootMap = new Map();
    let count = 0;
    let splitByThread = false;
    for (const prop of props) {
      const entries = Array.isArray(prop.p.by_callpath) ? prop.p.by_callpath : [];
      for (const e of entries) {
        const path = Array.isArray(e.path) && e.path.length ? e.path.map(String) : ['(unknown call path)'];
        if (Array.isArray(e.by_thread)) splitByThread = true;
        let level = roots;
        let map = rootMap;
        let parent = null;
        let key = '';
        let node = null;
        for (const frame of path) {
          key = key ? key + '\u0000' + frame : frame;
          node = map.get(frame);
          if (!node) {
            node = { key: key, frame: frame, children: [], childMap: new Map(), parent: parent, expanded: false, excl: 0, incl: 0, entries: [] };
            map.set(frame, node);
            level.push(node);
            count++;
          }
          parent = node;
          level = node.children;
          map = node.childMap;
        }
        node.excl += num(e.severity_ns);
        node.entries.push(e);
      }
    }
    const sum = (ns) => ns.reduce((s, n) => s + (n.incl = n.excl + sum(n.children)), 0);
    sum(roots);
    const sort = (ns) => { ns.sort((a, b) => b.incl - a.incl); ns.forEach((n) => sort(n.children)); };
    sort(roots);
    return { roots: roots, count: count, splitByThread: splitByThread };
  }

  function callNodeValue(n) {
    return n.children.length && n.expanded ? n.excl : n.incl;
  }

  /** Entries of a call node: its own (expanded) or its whole subtree (collapsed). */
  function callEntries(n) {
    const out = n.entries.slice();
    if (!(n.children.length && n.expanded)) {
      const walk = (m) => m.children.forEach((c) => { out.push(...c.entries); walk(c); });
      walk(n);
    }
    return out;
  }

  function addThreads(map, list) {
    if (!Array.isArray(list)) return;
    for (const t of list) {
      const name = String(t.thread);
      map.set(name, (map.get(name) || 0) + num(t.severity_ns));
    }
  }

  function renderReport(app, data) {
    const a = data.analysis || {};
    const base = num(a.time_ns) || num(((a.properties || []).find((p) => p.id === 'time') || {}).severity_ns) || 1;
    const pct = (ns) => (100 * ns) / base;

    app.append(el('header', { class: 'top' },
      el('h1', { text: 'Weft report' }),
      traceFacts(a)));
    document.title = 'Weft report' + (a.trace && a.trace.path ? ' — ' + a.trace.path : '');

    // Panes.
    const propPane = el('div', { class: 'pane', id: 'pane-properties' },
      el('h2', { id: 'h-properties', text: 'Properties' }),
      el('p', { class: 'caption', text: '% of CPU allocation time; collapsed: inclusive, expanded: exclusive' }));
    const propScroll = el('div', { class: 'scroll' });
    propPane.append(propScroll);
    const cpPane = el('div', { class: 'pane', id: 'pane-callpaths' }, el('h2', { text: 'Call paths' }));
    const cpCaption = el('p', { class: 'caption', id: 'callpath-caption' });
    const cpScroll = el('div', { class: 'scroll' });
    cpPane.append(cpCaption, cpScroll);
    const thPane = el('div', { class: 'pane', id: 'pane-threads' }, el('h2', { text: 'Threads' }));
    const thCaption = el('p', { class: 'caption', id: 'thread-caption' });
    const thList = el('div', { class: 'scroll threads', role: 'list', 'aria-label': 'Distribution over threads' });
    thPane.append(thCaption, thList);
    app.append(el('section', { class: 'panes', 'aria-label': 'Analysis' }, propPane, cpPane, thPane));

    let timeline = null;
    const forest = propertyForest(a);
    const state = { prop: null, calls: null, callNode: null };
    // Threads ready for work that had not come (an idle event loop or pool worker): not a problem
    // in themselves, so marked, and never the wait the page starts on while another holds work up.
    const readyForWork = new Set(Array.isArray(data.ready_for_work) ? data.ready_for_work : []);

    const propTree = makeTree(propScroll, {
      label: 'Properties',
      renderRow: (n, row) => {
        const shown = n.children.length && n.expanded ? n.excl : n.incl;
        if (isTaskTime(n)) {
          // Task latency summed over tasks: not a share of CPU allocation time.
          const l = n.p.latency && n.p.latency.all ? n.p.latency.all : null;
          row.title = (n.p.name || n.key) + ' (' + n.key + ')\ntask time, not thread time: ' + fmtNs(n.incl) + ' over ' +
            (l ? fmtCount(l.tasks) + ' tasks; per task mean ' + fmtNs(l.mean_ns) + ', p95 ' + fmtNs(l.p95_ns) + ', max ' + fmtNs(l.max_ns) : 'its tasks') +
            (n.p.description ? '\n' + n.p.description : '');
          row.append(
            el('span', { class: 'swatch' }),
            el('span', { class: 'val', text: 'task' }),
            el('span', { class: 'name', text: n.p.name || n.key }),
            el('span', { class: 'sub', text: l ? 'mean ' + fmtNs(l.mean_ns) + ' / task' : fmtNs(shown) }));
          row.dataset.id = n.key;
          row.dataset.value = String(shown);
          return;
        }
        const p = pct(shown);
        const li = row;
        const ready = readyForWork.has(n.key);
        li.title = (n.p.name || n.key) + ' (' + n.key + ')\ninclusive ' + fmtNs(n.incl) + ' (' + fmtPct(pct(n.incl)) + ')' +
          '\nexclusive ' + fmtNs(n.excl) + ' (' + fmtPct(pct(n.excl)) + ')' +
          (ready ? '\nthreads ready for work that had not come: not a problem in itself' : '') +
          (n.p.description ? '\n' + n.p.description : '');
        row.append(
          el('span', { class: 'swatch', style: 'background:' + severityColor(p) }),
          el('span', { class: 'val', text: fmtPct(p) }),
          el('span', { class: 'name', text: n.p.name || n.key }),
          el('span', { class: 'sub', text: fmtNs(shown) }));
        if (ready) row.append(el('span', { class: 'sub ready', text: 'ready for work' }));
        row.dataset.id = n.key;
        row.dataset.value = String(shown);
      },
      onSelect: (n) => selectProperty(n),
      onToggle: (n) => {
        if (n === state.prop) refreshCalls(true);
      }
    });
    // The main tree open one level, like CUBE's start view.
    for (const r of forest.roots) if (r.key === 'time') r.expanded = true;
    propTree.setRoots(forest.roots);

    const callTreeView = makeTree(cpScroll, {
      label: 'Call paths',
      renderRow: (n, row) => {
        const v = callNodeValue(n);
        row.title = n.frame + '\ninclusive ' + fmtNs(n.incl) + ', exclusive ' + fmtNs(n.excl);
        row.append(
          el('span', { class: 'swatch', style: 'background:' + severityColor(pct(v)) }),
          el('span', { class: 'val', text: isTaskTime(state.prop) ? 'task' : fmtPct(pct(v)) }),
          el('span', { class: 'name mono', text: n.frame }),
          el('span', { class: 'sub', text: fmtNs(v) }));
        row.dataset.value = String(v);
      },
      onSelect: (n) => {
        state.callNode = n;
        renderThreads();
      },
      onToggle: (n) => {
        if (n === state.callNode) renderThreads();
      }
    });

    function selectProperty(n) {
      state.prop = n;
      state.callNode = null;
      refreshCalls(false);
    }

    /** Rebuilds the call-path tree for the selected property; keep = restore open and selected nodes. */
    function refreshCalls(keep) {
      const n = state.prop;
      const openKeys = new Set();
      let selectedKey = null;
      if (keep && state.calls) {
        const walk = (ns) => ns.forEach((m) => { if (m.expanded) openKeys.add(m.key); walk(m.children); });
        walk(state.calls.roots);
        selectedKey = state.callNode ? state.callNode.key : null;
      }
      state.calls = n ? callTree(propertySet(n)) : { roots: [], count: 0, splitByThread: false };
      let selected = null;
      const walk = (ns) => ns.forEach((m) => {
        if (keep) m.expanded = openKeys.has(m.key);
        if (m.key === selectedKey) selected = m;
        walk(m.children);
      });
      walk(state.calls.roots);
      if (!keep) {
        // Open the heaviest path, so the main cost is in view.
        let m = state.calls.roots[0];
        while (m && m.children.length) {
          m.expanded = true;
          m = m.children[0];
        }
      }
      callTreeView.setRoots(state.calls.roots);
      state.callNode = selected;
      if (selected) callTreeView.select(selected, { silent: true });
      cpPane.dataset.property = n ? n.key : '';
      cpPane.dataset.nodes = String(state.calls.count);
      cpPane.dataset.roots = String(state.calls.roots.length);
      const name = n ? n.p.name || n.key : '';
      cpCaption.textContent = !n ? 'Select a property.' :
        state.calls.count === 0 ? 'No call paths recorded for ' + name + '.' :
        name + (n.children.length ? (n.expanded ? ' (exclusive)' : ' (inclusive of sub-properties)') : '') +
        '; collapsed: inclusive, expanded: exclusive';
      renderThreads();
    }

    function renderThreads() {
      const n = state.prop;
      const values = new Map();
      let scope = 'property';
      let caption = '';
      if (n) {
        const name = n.p.name || n.key;
        const cn = state.callNode;
        if (cn && state.calls.splitByThread) {
          scope = 'callpath';
          for (const e of callEntries(cn)) addThreads(values, e.by_thread);
          caption = name + ' at ' + cn.frame + (cn.children.length && !cn.expanded ? ' and below' : '');
        } else {
          for (const m of propertySet(n)) addThreads(values, m.p.by_thread);
          caption = cn
            ? 'Whole property ' + name + ': this analysis has no per-call-path thread split.'
            : name + ', all call paths';
        }
      }
      thCaption.textContent = n ? caption : 'Select a property.';
      thList.replaceChildren();
      const max = Math.max(0, ...values.values());
      for (const [thread, v] of values) {
        const row = el('div', { class: 'thread-row', role: 'listitem', tabindex: '0', 'data-thread': thread, 'data-value': v,
          title: thread + ': ' + fmtNs(v) + ' (' + fmtPct(pct(v)) + ')' },
        el('span', { class: 'tname', text: thread }),
        el('span', { class: 'bar', 'aria-hidden': 'true' }, el('span', { style: 'width:' + (max > 0 ? (100 * v) / max : 0).toFixed(1) + '%' })),
        el('span', { class: 'tval', text: fmtNs(v) }));
        const show = () => { if (timeline) timeline.highlight(thread); };
        row.addEventListener('click', show);
        row.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); show(); } });
        thList.append(row);
      }
      if (n && values.size === 0) thList.append(el('p', { class: 'muted', text: 'No thread values.' }));
      thPane.dataset.property = n ? n.key : '';
      thPane.dataset.scope = scope;
      thPane.dataset.callpath = state.callNode ? state.callNode.key : '';
      thPane.dataset.threads = String(values.size);
      if (timeline) timeline.focus(n ? n.key : null, state.callNode ? state.callNode.frame : null);
    }

    /** Selects the call path through a source location (File.java:12): current property first. */
    function selectLocation(loc) {
      const matches = (frame) => {
        const i = frame.indexOf(loc);
        return i >= 0 && !/[0-9]/.test(frame.charAt(i + loc.length));
      };
      const candidates = [];
      if (state.prop) candidates.push(state.prop);
      const wi = forest.byId.get('work_imbalance');
      if (wi) candidates.push(wi);
      [...forest.byId.values()].sort((x, y) => y.incl - x.incl).forEach((m) => candidates.push(m));
      for (const prop of candidates) {
        const t = callTree(propertySet(prop));
        let best = null;
        const walk = (ns) => ns.forEach((m) => {
          if (matches(m.frame) && (!best || m.incl > best.incl)) best = m;
          walk(m.children);
        });
        walk(t.roots);
        if (!best) continue;
        if (prop !== state.prop) {
          propTree.reveal(prop);
          propTree.render();
          propTree.select(prop, { silent: true });
          selectProperty(prop);
        }
        let node = null;
        const find = (ns) => ns.forEach((m) => { if (m.key === best.key) node = m; find(m.children); });
        find(state.calls.roots);
        if (!node) return false;
        callTreeView.reveal(node);
        callTreeView.render();
        callTreeView.select(node, { focus: true });
        node.li.scrollIntoView({ block: 'nearest' });
        return true;
      }
      return false;
    }

    // Timeline.
    if (data.timeline) {
      const sec = el('section', { id: 'timeline', 'aria-label': 'Timeline' });
      app.append(sec);
      timeline = renderTimeline(sec, data.timeline, a);
    } else {
      app.append(el('section', { id: 'timeline', 'data-tracks': '0' },
        el('h2', { text: 'Timeline' }), el('p', { class: 'muted', text: 'No trace was given, so there is no timeline.' })));
    }

    renderRegions(app, a, selectLocation);
    renderCriticalPath(app, a);
    renderNotes(app, [a]);
    app.append(el('p', { class: 'keys' },
      'Keys: ', el('kbd', { text: 'Tab' }), ' moves between panes; in a tree ', el('kbd', { text: '↑' }), el('kbd', { text: '↓' }),
      ' move, ', el('kbd', { text: '→' }), el('kbd', { text: '←' }), ' open and close; on the timeline ',
      el('kbd', { text: '+' }), el('kbd', { text: '−' }), ' zoom, ', el('kbd', { text: '←' }), el('kbd', { text: '→' }),
      ' pan, ', el('kbd', { text: '↑' }), el('kbd', { text: '↓' }), ' scroll threads, ', el('kbd', { text: '0' }), ' shows all.',
      ' Weft ' + (data.version || '')));

    // Start on the most severe wait state (what EXPERT would report first), else on the root. A
    // property weighs its inclusive value without what threads ready for work spent in it; those
    // come last, as in the text report.
    const readyIn = (n) => n.children.reduce((s, c) => s + (readyForWork.has(c.key) ? c.incl : readyIn(c)), 0);
    let first = null;
    let firstRank = null;
    for (const n of forest.byId.values()) {
      // Delay costs explain waits (they are charged to the causing threads): not a wait to start on.
      if (n.key === 'time' || n.key === 'execution' || isTaskTime(n) || n.key.startsWith('delay_cost') || !(n.incl > 0)) continue;
      const ready = readyForWork.has(n.key);
      const holdsUp = ready ? 0 : n.incl - readyIn(n);
      if (!ready && !(holdsUp > 0)) continue; // all of it is its ready-for-work children's
      const rank = ready ? [0, n.incl] : [1, holdsUp];
      if (!first || rank[0] > firstRank[0] || (rank[0] === firstRank[0] && rank[1] > firstRank[1])) {
        first = n;
        firstRank = rank;
      }
    }
    first = first || forest.byId.get('time') || forest.roots[0];
    if (first) {
      propTree.reveal(first);
      propTree.render();
      propTree.select(first);
    }
  }

  function renderRegions(app, a, selectLocation) {
    const regions = Array.isArray(a.regions) ? a.regions.slice() : [];
    const sec = el('section', { id: 'regions', 'data-regions': regions.length, 'aria-label': 'Parallel regions' },
      el('h2', { text: 'Parallel regions' }));
    app.append(sec);
    if (!regions.length) {
      sec.append(el('p', { class: 'muted', text: 'No parallel regions in this analysis.' }));
      return;
    }
    sec.append(el('p', { class: 'caption muted', text: 'Load-balance index: (max − mean) / mean of the threads\' busy time; 0 is perfect balance. Time lost: what the imbalance cost. Click a location to select its call path.' }));
    const status = el('p', { class: 'muted', id: 'regions-status', 'aria-live': 'polite' });
    regions.sort((x, y) => num(y.lost_ns) - num(x.lost_ns));
    const table = el('table', { id: 'regions-table' });
    table.append(el('thead', null, el('tr', null,
      el('th', { text: 'Region' }), el('th', { text: 'Location' }), el('th', { class: 'num', text: 'Instances' }),
      el('th', { class: 'num', text: 'Threads' }), el('th', { class: 'num', text: 'Busy max' }), el('th', { class: 'num', text: 'Busy mean' }),
      el('th', { class: 'num', text: 'Load-balance index' }), el('th', { class: 'num', text: 'Time lost' }))));
    const body = el('tbody');
    const maxImb = Math.max(0, ...regions.map((r) => num(r.imbalance)));
    for (const r of regions) {
      const busy = Object.values(r.busy_ns_by_thread || {}).map(num);
      const max = busy.length ? Math.max(...busy) : 0;
      const mean = busy.length ? busy.reduce((s, v) => s + v, 0) / busy.length : 0;
      const loc = r.location ? String(r.location) : '';
      const tr = el('tr', { 'data-region': r.name, 'data-location': loc });
      const locCell = el('td', { class: 'mono' });
      if (loc) {
        const b = el('button', { class: 'link mono', type: 'button', text: loc, title: 'Select the call path through ' + loc });
        b.addEventListener('click', () => {
          for (const row of body.querySelectorAll('tr.picked')) row.classList.remove('picked');
          tr.classList.add('picked');
          const found = selectLocation(loc);
          tr.dataset.found = found ? 'yes' : 'no';
          status.textContent = found ? '' : 'No call path of this analysis passes through ' + loc + '.';
        });
        locCell.append(b);
      } else {
        locCell.append('–');
      }
      const imb = num(r.imbalance);
      tr.append(
        el('td', { text: r.name }), locCell, el('td', { class: 'num', text: fmtCount(r.instances) }),
        el('td', { class: 'num', text: busy.length }), el('td', { class: 'num', text: fmtNs(max) }),
        el('td', { class: 'num', text: fmtNs(mean) }),
        el('td', { class: 'num' }, imb.toFixed(2), el('span', { class: 'lbi', 'aria-hidden': 'true' },
          el('span', { style: 'width:' + (maxImb > 0 ? (100 * imb) / maxImb : 0).toFixed(1) + '%' }))),
        el('td', { class: 'num', text: fmtNs(r.lost_ns) }));
      body.append(tr);
    }
    table.append(body);
    sec.append(el('div', { class: 'scroll' }, table), status);
  }

  /** The critical path: length against the run, threads on it, call paths with what-if figures. */
  function renderCriticalPath(app, a) {
    const cp = a.critical_path;
    if (!cp || !(num(cp.length_ns) > 0)) return;
    const run = num((a.trace || {}).duration_ns);
    const len = num(cp.length_ns);
    const share = (ns) => (len > 0 ? fmtPct((100 * ns) / len) : '');
    const sec = el('section', { id: 'critical-path', 'aria-label': 'Critical path' },
      el('h2', { text: 'Critical path' }),
      el('p', { class: 'caption muted', text: 'The longest chain of work through the hand-overs between threads: ' +
        fmtNs(len) + (run > 0 ? ' of the run\'s ' + fmtNs(run) : '') +
        '. What if balanced: how much shorter the path gets if that call path\'s work were spread evenly over the threads that ran it.' }));
    const threads = el('table', { id: 'critical-threads' });
    threads.append(el('thead', null, el('tr', null, el('th', { text: 'Thread' }), el('th', { class: 'num', text: 'On the path' }),
      el('th', { class: 'num', text: 'Share' }))));
    const tb = el('tbody');
    for (const t of (Array.isArray(cp.by_thread) ? cp.by_thread : [])) {
      tb.append(el('tr', null, el('td', { text: String(t.thread) }), el('td', { class: 'num', text: fmtNs(num(t.ns)) }),
        el('td', { class: 'num', text: share(num(t.ns)) })));
    }
    threads.append(tb);
    const paths = el('table', { id: 'critical-callpaths' });
    paths.append(el('thead', null, el('tr', null, el('th', { text: 'Call path' }), el('th', { class: 'num', text: 'On the path' }),
      el('th', { class: 'num', text: 'Share' }), el('th', { class: 'num', text: 'What if balanced' }))));
    const pb = el('tbody');
    for (const c of (Array.isArray(cp.by_callpath) ? cp.by_callpath : []).slice(0, 50)) {
      const path = Array.isArray(c.path) && c.path.length ? c.path.map(String) : ['(outside traced regions)'];
      pb.append(el('tr', null, el('td', { class: 'mono', text: path.slice(-2).join(' › '), title: path.join(' › ') }),
        el('td', { class: 'num', text: fmtNs(num(c.ns)) }), el('td', { class: 'num', text: share(num(c.ns)) }),
        el('td', { class: 'num', text: num(c.what_if_ns) > 0 ? '−' + fmtNs(num(c.what_if_ns)) : '—' })));
    }
    paths.append(pb);
    sec.append(threads, paths);
    app.append(sec);
  }

  function renderNotes(app, analyses) {
    const notes = [];
    analyses.forEach((a, i) => {
      for (const n of Array.isArray(a.notes) ? a.notes : []) {
        const text = typeof n === 'string' ? n : n && n.message ? n.message : JSON.stringify(n);
        notes.push((analyses.length > 1 ? (i === 0 ? 'A: ' : 'B: ') : '') + text);
      }
    });
    const sec = el('section', { id: 'notes', 'data-notes': notes.length }, el('h2', { text: 'Notes' }));
    if (notes.length) sec.append(el('ul', { class: 'notes' }, ...notes.map((t) => el('li', { text: t }))));
    else sec.append(el('p', { class: 'muted', text: 'The analysis made no notes.' }));
    app.append(sec);
  }

  // ---- timeline ------------------------------------------------------------------------------------

  function renderTimeline(sec, tl, analysis) {
    const kinds = tl.kinds || [];
    const tracks = tl.tracks || [];
    const groups = tl.groups || [];
    const detailed = tl.mode === 'detailed';
    const end = Math.max(1, num(tl.end_ns));
    const colNs = Math.max(1, num(tl.column_ns));
    const STRETCH_PX = 3;

    // Decode the data once.
    let intervalCount = 0;
    const symbols = tl.symbols || '';
    for (const t of tracks) {
      // Every interval in detailed mode; each thread's longest stretches in summarised mode.
      const iv = t.iv || [];
      const n = Math.floor(iv.length / 4);
      t.s = new Float64Array(n);
      t.e = new Float64Array(n);
      t.c = new Int32Array(n);
      t.l = new Int32Array(n);
      let start = 0;
      let maxDur = 0;
      for (let i = 0; i < n; i++) {
        start += iv[4 * i];
        t.s[i] = start;
        t.e[i] = start + iv[4 * i + 1];
        t.c[i] = iv[4 * i + 2];
        t.l[i] = iv[4 * i + 3];
        maxDur = Math.max(maxDur, iv[4 * i + 1]);
      }
      t.maxDur = maxDur;
      intervalCount += n;
      if (!detailed) {
        const cols = new Uint8Array(Math.max(0, num(tl.columns)));
        const s = t.cols || '';
        let c = 0;
        for (let i = 0; i < s.length && c < cols.length;) {
          const ch = s.charAt(i++);
          let j = i;
          while (j < s.length && s.charCodeAt(j) >= 48 && s.charCodeAt(j) <= 57) j++;
          const count = j > i ? parseInt(s.slice(i, j), 10) : 1;
          i = j;
          const v = ch === '.' ? 0 : symbols.indexOf(ch) + 1;
          cols.fill(v, c, Math.min(cols.length, c + count));
          c += count;
        }
        t.cols = cols;
      }
    }
    // Arrows: from track, from time, to track, to time (stored as a delta from the from time).
    const arrows = Array.isArray(tl.arrows) ? tl.arrows.slice() : [];
    for (let i = 0; i + 3 < arrows.length; i += 4) arrows[i + 3] += arrows[i + 1];

    sec.dataset.mode = tl.mode;
    sec.dataset.tracks = String(tracks.length);
    sec.dataset.groups = String(groups.length);
    sec.dataset.intervals = String(intervalCount);
    sec.dataset.kept = detailed ? '' : String(intervalCount);
    sec.dataset.arrows = String(arrows.length / 4);
    sec.dataset.columns = String(num(tl.columns));
    sec.dataset.columnNs = String(colNs);

    sec.append(el('h2', { text: 'Timeline' }));
    const limit = fmtCount(tl.max_intervals);
    if (detailed) {
      sec.append(el('p', { class: 'muted', id: 'timeline-mode' },
        'Detailed: all ' + fmtCount(intervalCount) + ' intervals of ' + fmtCount(tracks.length) + ' threads and ' + fmtCount(arrows.length / 4) +
        ' fork→begin arrows are drawn (the page draws up to ' + limit + ' intervals one by one and summarises larger traces).'));
    } else {
      sec.append(el('p', { class: 'note', id: 'timeline-mode' },
        'Summarised: this trace has ' + fmtCount(tl.intervals) + ' intervals, more than the ' + limit +
        ' the page draws one by one. Each thread is cut into ' + fmtCount(tl.columns) + ' columns of ' + fmtNs(colNs) +
        '; a column shows the activity that took most of its time, with opacity for its share (¼ to all). Over the columns, the ' +
        fmtCount(intervalCount) + ' longest stretches of the threads\' activity (up to ' + fmtCount(tl.kept_per_thread) +
        ' per thread) are drawn exactly, and when zoomed in so far that a column is wider than ' + STRETCH_PX +
        ' pixels, every kept stretch is: shorter activity shows only in the columns. Fork→begin arrows are not drawn.'));
    }
    if (num(tl.unmatched_ends) > 0) {
      sec.append(el('p', { class: 'muted', text: fmtCount(tl.unmatched_ends) + ' interval ends had no start in the trace (it began inside them) and are not drawn.' }));
    }
    if (num(tl.open_at_end) > 0) {
      sec.append(el('p', { class: 'muted', text: fmtCount(tl.open_at_end) + ' intervals were still open when the trace ended; they are drawn to its end.' }));
    }

    const legend = el('div', { class: 'legend', 'aria-label': 'Legend' });
    for (const k of kinds) {
      legend.append(el('span', { class: 'key', 'data-kind': k.id },
        el('span', { class: 'swatch', style: 'background:' + k.color + (k.id === 'lock_hold' ? ';height:3px' : '') }), k.label));
    }
    legend.append(el('span', { class: 'key' }, el('span', { class: 'swatch', style: 'background:#808080;height:3px' }), 'thread alive, none of these'));
    if (detailed && arrows.length) legend.append(el('span', { class: 'key' }, '→ task created → task begins'));
    const critical = criticalOverlay(sec, analysis, tracks, tl, legend, () => draw());
    sec.append(legend);

    const btn = (text, label, fn) => {
      const b = el('button', { type: 'button', 'aria-label': label, title: label, text: text });
      b.addEventListener('click', fn);
      return b;
    };
    const range = el('span', { class: 'muted', id: 'timeline-range' });
    let showArrows = true;
    const arrowBox = el('input', { type: 'checkbox', id: 'tl-arrows', checked: 'checked' });
    arrowBox.addEventListener('change', () => { showArrows = arrowBox.checked; draw(); });
    const toolbar = el('div', { class: 'toolbar' },
      btn('+', 'Zoom in (+)', () => zoom(1 / 1.6)), btn('−', 'Zoom out (−)', () => zoom(1.6)),
      btn('←', 'Pan left (←)', () => pan(-0.25)), btn('→', 'Pan right (→)', () => pan(0.25)),
      btn('All', 'Show the whole trace (0)', () => reset()), range);
    if (detailed && arrows.length) toolbar.append(el('label', null, arrowBox, ' arrows'));
    sec.append(toolbar);

    const GUTTER = 170;
    // Columns at least this wide: every kept stretch is drawn (else only those a column long).
    const AXIS = 22;
    const GROUP_H = 18;
    const trackH = Math.max(5, Math.min(18, Math.floor(14000 / Math.max(1, tracks.length))));
    const gap = trackH >= 10 ? 2 : 0;
    const rows = [];
    let y = AXIS;
    for (const g of groups) {
      rows.push({ group: g, y: y, h: GROUP_H });
      y += GROUP_H;
      for (let i = g.first; i < g.first + g.count && i < tracks.length; i++) {
        tracks[i].y = y;
        rows.push({ track: tracks[i], index: i, y: y, h: trackH + gap });
        y += trackH + gap;
      }
    }
    // The canvas is only as tall as the visible part (sticky inside a scroll box whose spacer gives the
    // full height): memory and drawing stay bounded however many threads there are.
    const fullHeight = y + 4;
    let height = fullHeight;
    let offset = 0;

    const wrap = el('div', { class: 'tl-wrap' });
    const scroll = el('div', { class: 'tl-scroll' });
    const spacer = el('div', { 'aria-hidden': 'true' });
    const canvas = el('canvas', { tabindex: '0', role: 'img', id: 'timeline-canvas',
      'aria-label': 'Timeline of ' + tracks.length + ' threads. Plus and minus zoom, arrow keys pan, 0 shows everything.' });
    const tip = el('div', { class: 'tl-tip', role: 'tooltip' });
    scroll.append(canvas, spacer);
    wrap.append(scroll, tip);
    sec.append(wrap);
    const ctx = canvas.getContext('2d');

    const win = analysis && analysis.trace && analysis.trace.window;
    let winStart = null;
    let winEnd = null;
    if (win && win.start_ns !== undefined && win.end_ns !== undefined) {
      winStart = num(win.start_ns) - num(tl.origin_ns);
      winEnd = num(win.end_ns) - num(tl.origin_ns);
      if (!(winEnd > winStart) || winEnd < 0 || winStart > end) winStart = winEnd = null;
    }

    let v0 = 0;
    let v1 = end;
    let width = 800;
    let highlighted = -1;
    let draws = 0;

    const plotW = () => Math.max(10, width - GUTTER - 8);
    const xOf = (t) => GUTTER + ((t - v0) / (v1 - v0)) * plotW();
    const tOf = (x) => v0 + ((x - GUTTER) / plotW()) * (v1 - v0);

    function resize() {
      width = Math.max(300, scroll.clientWidth || 800);
      height = Math.min(fullHeight, Math.max(240, Math.round((window.innerHeight || 800) * 0.62)));
      scroll.style.height = height + 'px';
      spacer.style.height = fullHeight - height + 'px';
      const dpr = window.devicePixelRatio || 1;
      canvas.style.width = width + 'px';
      canvas.style.height = height + 'px';
      canvas.width = Math.round(width * dpr);
      canvas.height = Math.round(height * dpr);
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      draw();
    }

    function clampView() {
      const minSpan = Math.min(end, 100);
      let span = Math.max(minSpan, Math.min(end * 1.05, v1 - v0));
      let c = (v0 + v1) / 2;
      c = Math.max(span / 2 - end * 0.025, Math.min(end * 1.025 - span / 2, c));
      v0 = c - span / 2;
      v1 = c + span / 2;
    }

    function zoom(f, at) {
      const c = at === undefined ? (v0 + v1) / 2 : at;
      v0 = c - (c - v0) * f;
      v1 = c + (v1 - c) * f;
      clampView();
      draw();
    }

    function pan(frac) {
      const d = (v1 - v0) * frac;
      v0 += d;
      v1 += d;
      clampView();
      draw();
    }

    function reset() {
      v0 = 0;
      v1 = end;
      draw();
    }

    function niceStep(span) {
      const raw = span / Math.max(2, Math.floor(plotW() / 110));
      const p = Math.pow(10, Math.floor(Math.log10(raw)));
      for (const m of [1, 2, 5, 10]) if (m * p >= raw) return m * p;
      return 10 * p;
    }

    function kindColor(k) {
      return kinds[k] ? kinds[k].color : '#888';
    }

    const HOLD = kinds.findIndex((k) => k.id === 'lock_hold');
    const mixWhite = (color, a) => {
      const hex = /^#?([0-9a-f]{6})$/i.exec(color || '');
      const rgb = hex ? [0, 2, 4].map((i) => parseInt(hex[1].substr(i, 2), 16)) : [136, 136, 136];
      return 'rgb(' + rgb.map((v) => Math.round(255 + (v - 255) * a)).join(',') + ')';
    };
    // What is not selected is drawn at a quarter of its colour.
    const DIM = 0.25;
    const dimmed = kinds.map((k) => mixWhite(k.color, DIM));

    // The selected property (and call path): the kinds that show it, and per track which intervals.
    let focus = null;
    function frameMatches(label, frame) {
      const i = label.indexOf(frame);
      return i >= 0 && (i === 0 || label.charAt(i - 1) === ' ') && !/[0-9]/.test(label.charAt(i + frame.length));
    }
    function setFocus(property, frame) {
      const ks = new Set();
      kinds.forEach((k, i) => { if ((k.properties || []).includes(property)) ks.add(i); });
      focus = null;
      let count = 0;
      if (ks.size) {
        focus = { kinds: ks, flags: null };
        if (detailed) {
          // Per interval: of a selected kind and, with a call path, inside an interval of its frame.
          focus.flags = tracks.map((t) => {
            const within = [];
            if (frame) {
              for (let i = 0; i < t.s.length; i++) {
                const label = t.l[i] >= 0 && tl.labels ? tl.labels[t.l[i]] : '';
                if (label && frameMatches(label, frame)) within.push(t.s[i], t.e[i]);
              }
            }
            const f = new Uint8Array(t.s.length);
            for (let i = 0; i < t.s.length; i++) {
              if (!ks.has(t.c[i] & 0xf)) continue;
              let inside = !frame;
              for (let j = 0; !inside && j < within.length; j += 2) inside = t.s[i] >= within[j] && t.e[i] <= within[j + 1];
              if (inside) { f[i] = 1; count++; }
            }
            return f;
          });
        }
      }
      sec.dataset.focus = focus ? property + (frame ? ' @ ' + frame : '') : '';
      sec.dataset.focusIntervals = String(count);
      draw();
    }

    function draw() {
      draws++;
      offset = Math.max(0, Math.min(fullHeight - height, scroll.scrollTop));
      const W = width;
      ctx.clearRect(0, 0, W, height);
      ctx.fillStyle = '#fff';
      ctx.fillRect(0, 0, W, height);
      ctx.font = '12px system-ui, sans-serif';
      ctx.textBaseline = 'middle';

      // Outside the analysed window: shaded.
      if (winStart !== null) {
        ctx.fillStyle = '#efefef';
        const a = xOf(winStart);
        const b = xOf(winEnd);
        if (a > GUTTER) ctx.fillRect(GUTTER, AXIS, Math.min(a, W) - GUTTER, height - AXIS);
        if (b < W) ctx.fillRect(Math.max(GUTTER, b), AXIS, W - Math.max(GUTTER, b), height - AXIS);
      }

      // Grid lines (the axis labels are drawn last, over the rows scrolled under them).
      const step = niceStep(v1 - v0);
      const ticks = [];
      for (let t = Math.ceil(v0 / step) * step; t <= v1; t += step) {
        const x = Math.round(xOf(t)) + 0.5;
        if (x >= GUTTER) ticks.push([x, t]);
      }
      ctx.strokeStyle = '#ddd';
      ctx.beginPath();
      for (const [x] of ticks) {
        ctx.moveTo(x, AXIS - 4);
        ctx.lineTo(x, height);
      }
      ctx.stroke();

      const pw = plotW();
      const scale = pw / (v1 - v0);
      let stretchesDrawn = 0;
      for (const row of rows) {
        if (row.y + row.h < offset + AXIS || row.y > offset + height) continue;
        const r = { group: row.group, track: row.track, index: row.index, y: row.y - offset };
        if (r.group) {
          ctx.fillStyle = '#e9e9e5';
          ctx.fillRect(0, r.y, W, GROUP_H);
          ctx.fillStyle = '#1b1b1b';
          ctx.font = '600 12px system-ui, sans-serif';
          const g = r.group;
          const what = g.pool ? g.name + (g.kind ? ' · ' + g.kind : '') + (g.parallelism ? ' · parallelism ' + g.parallelism : '') +
            ' · ' + g.count + (g.count === 1 ? ' worker' : ' workers') : 'threads outside pools · ' + g.count;
          ctx.fillText(what, 6, r.y + GROUP_H / 2);
          ctx.font = '12px system-ui, sans-serif';
          continue;
        }
        const t = r.track;
        const top = r.y + gap / 2;
        if (r.index === highlighted) {
          ctx.fillStyle = '#dbe9f7';
          ctx.fillRect(0, r.y, W, trackH + gap);
        }
        if (trackH >= 9) {
          ctx.fillStyle = '#1b1b1b';
          ctx.save();
          ctx.beginPath();
          ctx.rect(0, top, GUTTER - 6, trackH);
          ctx.clip();
          ctx.fillText(t.name, 16, top + trackH / 2);
          ctx.restore();
        }
        // Lifetime line.
        if (t.first >= 0) {
          const a = Math.max(GUTTER, xOf(t.first));
          const b = Math.min(W, xOf(t.last));
          if (b >= a) {
            ctx.fillStyle = '#808080';
            ctx.fillRect(a, top + trackH / 2 - 1, Math.max(1, b - a), 2);
          }
        }
        ctx.save();
        ctx.beginPath();
        ctx.rect(GUTTER, top, W - GUTTER, trackH);
        ctx.clip();
        if (detailed) drawIntervals(t, top, scale, r.index, 0);
        else {
          drawColumns(t, top, scale);
          stretchesDrawn += drawIntervals(t, top, scale, r.index, stretchMin(scale));
        }
        ctx.restore();
      }
      if (detailed && showArrows && arrows.length) drawArrows();
      critical.draw(ctx, { xOf, v0, v1, offset, trackH, gap, left: GUTTER, top: AXIS, width, height });

      ctx.fillStyle = '#fff';
      ctx.fillRect(0, 0, W, AXIS);
      ctx.fillStyle = '#333';
      ctx.font = '12px system-ui, sans-serif';
      for (const [x, t] of ticks) {
        const label = fmtNs(t);
        if (x + 3 + ctx.measureText(label).width <= W) ctx.fillText(label, x + 3, AXIS / 2);
      }
      ctx.strokeStyle = '#999';
      ctx.beginPath();
      ctx.moveTo(0, AXIS - 0.5);
      ctx.lineTo(W, AXIS - 0.5);
      ctx.stroke();
      ctx.strokeStyle = '#999';
      ctx.beginPath();
      ctx.moveTo(GUTTER - 0.5, AXIS);
      ctx.lineTo(GUTTER - 0.5, height);
      ctx.stroke();

      range.textContent = fmtNs(Math.max(0, v0)) + ' – ' + fmtNs(Math.min(end, v1)) + ' of ' + fmtNs(end);
      sec.dataset.draws = String(draws);
      sec.dataset.stretchesDrawn = String(stretchesDrawn);
      sec.dataset.stretchMinNs = detailed ? '' : String(stretchMin(scale));
      sec.dataset.offset = String(Math.round(offset));
      sec.dataset.viewStart = String(Math.round(v0));
      sec.dataset.viewEnd = String(Math.round(v1));
    }

    function firstVisible(t, from) {
      let lo = 0;
      let hi = t.s.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (t.s[mid] < from) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    }

    /** The shortest kept stretch drawn over a summarised track at this scale (px per ns). */
    function stretchMin(scale) {
      return colNs * scale >= STRETCH_PX ? 0 : colNs;
    }

    /** Draws a track's intervals at least minDur long; returns how many rectangles it drew. */
    function drawIntervals(t, top, scale, ti, minDur) {
      const n = t.s.length;
      let drawn = 0;
      const flags = focus && focus.flags ? focus.flags[ti] : null;
      // Lock holds are a strip along the bottom, drawn over the activity (second pass).
      const stripH = Math.max(2, Math.floor(trackH / 4));
      for (const holds of [false, true]) {
        let lastX = -1;
        let lastCode = -1;
        for (let i = firstVisible(t, v0 - t.maxDur); i < n; i++) {
          const s = t.s[i];
          if (s > v1) break;
          const e = t.e[i];
          if (e < v0 || e - s < minDur) continue;
          const code = t.c[i];
          const kind = code & 0xf;
          if ((kind === HOLD) !== holds) continue;
          const on = !focus || (flags ? flags[i] === 1 : focus.kinds.has(kind));
          const key = on ? code : -1 - code;
          const x0 = GUTTER + (s - v0) * scale;
          const x1 = GUTTER + (e - v0) * scale;
          const px = Math.floor(x0);
          // Many intervals in one pixel: one rectangle per pixel and kind is enough.
          if (x1 - x0 < 1 && px === lastX && key === lastCode) continue;
          lastX = px;
          lastCode = key;
          const depth = (code >> 4) & 0xff;
          const inset = holds ? trackH - stripH : Math.min(depth * 2, Math.floor(trackH / 2) - 1);
          ctx.fillStyle = on ? kindColor(kind) : dimmed[kind];
          const xa = Math.max(GUTTER - 1, x0);
          const h = holds ? stripH : trackH - 2 * inset;
          ctx.fillRect(xa, top + inset, Math.max(1, Math.min(x1, width + 1) - xa), h);
          drawn++;
        }
      }
      return drawn;
    }

    // A column's share is shown as the kind's colour mixed with white (opaque, so overlapping edges
    // never darken): ¼ → 40 %, ½ → 60 %, ¾ → 80 %, all → 100 % of the colour.
    const ALPHA = [0, 0.4, 0.6, 0.8, 1];
    const shades = kinds.map((k) => {
      const hex = /^#?([0-9a-f]{6})$/i.exec(k.color || '');
      const rgb = hex ? [0, 2, 4].map((i) => parseInt(hex[1].substr(i, 2), 16)) : [136, 136, 136];
      return ALPHA.map((a) => 'rgb(' + rgb.map((v) => Math.round(255 + (v - 255) * a)).join(',') + ')');
    });
    const dimShades = kinds.map((k) => ALPHA.map((a) => mixWhite(k.color, a * DIM)));
    function drawColumns(t, top, scale) {
      const cols = t.cols;
      const c0 = Math.max(0, Math.floor(v0 / colNs));
      const c1 = Math.min(cols.length, Math.ceil(v1 / colNs));
      // Per pixel, keep the strongest column; then one rectangle per run of equal pixels.
      let runSym = 0;
      let runX = 0;
      let curPx = -1;
      let curSym = 0;
      const flush = (x) => {
        if (runSym > 0) {
          const k = Math.floor((runSym - 1) / 4);
          const level = ((runSym - 1) % 4) + 1;
          const on = !focus || focus.kinds.has(k);
          ctx.fillStyle = shades[k] ? (on ? shades[k][level] : dimShades[k][level]) : '#888';
          ctx.fillRect(runX, top, Math.max(1, x - runX), trackH);
        }
      };
      const emit = (px, sym, xEnd) => {
        if (sym !== runSym) {
          flush(px);
          runSym = sym;
          runX = px;
        }
        return xEnd;
      };
      let xEnd = 0;
      for (let c = c0; c < c1; c++) {
        const sym = cols[c];
        const xa = GUTTER + (c * colNs - v0) * scale;
        const xb = GUTTER + ((c + 1) * colNs - v0) * scale;
        if (xb - xa >= 1) {
          if (curPx >= 0) { xEnd = emit(curPx, curSym, curPx + 1); curPx = -1; }
          xEnd = emit(xa, sym, xb);
          continue;
        }
        const px = Math.floor(xa);
        if (px !== curPx) {
          if (curPx >= 0) xEnd = emit(curPx, curSym, curPx + 1);
          curPx = px;
          curSym = sym;
        } else if (sym && (!curSym || (sym - 1) % 4 > (curSym - 1) % 4)) {
          curSym = sym;
        }
      }
      if (curPx >= 0) xEnd = emit(curPx, curSym, curPx + 1);
      flush(xEnd);
    }

    function drawArrows() {
      const pw = plotW();
      ctx.strokeStyle = 'rgba(40,40,40,0.55)';
      ctx.fillStyle = 'rgba(40,40,40,0.75)';
      ctx.lineWidth = 1;
      const heads = [];
      ctx.save();
      ctx.beginPath();
      ctx.rect(GUTTER, AXIS, width - GUTTER, height - AXIS);
      ctx.clip();
      ctx.beginPath();
      for (let i = 0; i + 3 < arrows.length; i += 4) {
        const ta = arrows[i + 1];
        const tb = arrows[i + 3];
        if (Math.max(ta, tb) < v0 || Math.min(ta, tb) > v1) continue;
        const fa = tracks[arrows[i]];
        const fb = tracks[arrows[i + 2]];
        if (!fa || !fb) continue;
        const xa = xOf(ta);
        const xb = xOf(tb);
        const ya = fa.y - offset + gap / 2 + trackH / 2;
        const yb = fb.y - offset + gap / 2 + trackH / 2;
        ctx.moveTo(xa, ya);
        ctx.lineTo(xb, yb);
        if (xb >= GUTTER && xb <= width) heads.push(xb, yb, Math.atan2(yb - ya, xb - xa));
      }
      ctx.stroke();
      if (heads.length / 3 <= 3000 && pw > 0) {
        ctx.beginPath();
        for (let i = 0; i < heads.length; i += 3) {
          const x = heads[i];
          const yy = heads[i + 1];
          const ang = heads[i + 2];
          ctx.moveTo(x, yy);
          ctx.lineTo(x - 6 * Math.cos(ang - 0.4), yy - 6 * Math.sin(ang - 0.4));
          ctx.lineTo(x - 6 * Math.cos(ang + 0.4), yy - 6 * Math.sin(ang + 0.4));
          ctx.closePath();
        }
        ctx.fill();
      }
      ctx.restore();
    }

    // What is under the pointer.
    function describe(x, yPos) {
      if (yPos < AXIS) return null;
      const yy = yPos + offset;
      const r = rows.find((row) => !row.group && yy >= row.y && yy < row.y + row.h);
      if (!r || x < GUTTER) return null;
      const t = r.track;
      const time = tOf(x);
      const head = t.name + ' · ' + fmtNs(time);
      // An interval (in summarised mode: a kept stretch as drawn) under the pointer, else the column.
      const minDur = detailed ? 0 : stretchMin(plotW() / (v1 - v0));
      const tol = (v1 - v0) / plotW();
      let best = -1;
      let bestDepth = -1;
      for (let i = firstVisible(t, time - t.maxDur - tol); i < t.s.length && t.s[i] <= time + tol; i++) {
        if (t.e[i] + tol >= time && t.e[i] - t.s[i] >= minDur) {
          const d = (t.c[i] >> 4) & 0xff;
          if (d >= bestDepth) { best = i; bestDepth = d; }
        }
      }
      if (best >= 0) {
        const k = kinds[t.c[best] & 0xf];
        const label = tl.labels && t.l[best] >= 0 ? tl.labels[t.l[best]] : '';
        return head + '\n' + (k ? k.label : '') + (label ? ': ' + label : '') + '\n' +
          fmtNs(t.s[best]) + ' + ' + fmtNs(t.e[best] - t.s[best]) + ((t.c[best] & 4096) ? ' (still open at the end)' : '');
      }
      if (detailed) return head;
      const c = Math.floor(time / colNs);
      const sym = c >= 0 && c < t.cols.length ? t.cols[c] : 0;
      if (!sym) return head + '\nno recorded activity in this column';
      const k = kinds[Math.floor((sym - 1) / 4)];
      return head + '\n' + (k ? k.label : '') + ': about ' + ((sym - 1) % 4 + 1) * 25 + ' % of this column (' + fmtNs(colNs) + ')';
    }

    let drag = null;
    canvas.addEventListener('mousedown', (e) => {
      drag = { x: e.clientX, v0: v0, v1: v1 };
      canvas.focus();
      e.preventDefault();
    });
    window.addEventListener('mousemove', (e) => {
      if (drag) {
        const d = ((e.clientX - drag.x) / plotW()) * (drag.v1 - drag.v0);
        v0 = drag.v0 - d;
        v1 = drag.v1 - d;
        clampView();
        draw();
      }
    });
    window.addEventListener('mouseup', () => { drag = null; });
    canvas.addEventListener('mousemove', (e) => {
      const rect = canvas.getBoundingClientRect();
      const text = drag ? null : describe(e.clientX - rect.left, e.clientY - rect.top);
      if (!text) { tip.style.display = 'none'; return; }
      tip.textContent = text;
      tip.style.display = 'block';
      const wr = wrap.getBoundingClientRect();
      tip.style.left = Math.min(wr.width - 260, e.clientX - wr.left + 12) + 'px';
      tip.style.top = (e.clientY - wr.top + 14) + 'px';
    });
    canvas.addEventListener('mouseleave', () => { tip.style.display = 'none'; });
    // The plain wheel scrolls the threads and the page as anywhere else; with Ctrl (or ⌘, and the
    // pinch gesture, which browsers report as Ctrl+wheel) it zooms around the pointer. A sideways
    // wheel or Shift+wheel pans.
    canvas.addEventListener('wheel', (e) => {
      const rect = canvas.getBoundingClientRect();
      if (e.ctrlKey || e.metaKey) {
        e.preventDefault();
        zoom(e.deltaY < 0 ? 1 / 1.25 : 1.25, tOf(e.clientX - rect.left));
      } else if (Math.abs(e.deltaX) > Math.abs(e.deltaY) || e.shiftKey) {
        e.preventDefault();
        pan(((e.shiftKey ? e.deltaY : e.deltaX) / plotW()));
      }
    }, { passive: false });
    canvas.addEventListener('keydown', (e) => {
      switch (e.key) {
        case '+': case '=': zoom(1 / 1.6); break;
        case '-': case '_': zoom(1.6); break;
        case 'ArrowLeft': pan(-0.2); break;
        case 'ArrowRight': pan(0.2); break;
        case 'ArrowUp': scroll.scrollTop -= trackH + gap; break;
        case 'ArrowDown': scroll.scrollTop += trackH + gap; break;
        case '0': case 'Home': reset(); break;
        default: return;
      }
      e.preventDefault();
    });
    let pending = false;
    scroll.addEventListener('scroll', () => {
      if (pending) return;
      pending = true;
      requestAnimationFrame(() => { pending = false; draw(); });
    });
    if (typeof ResizeObserver === 'function') {
      new ResizeObserver(() => { if (Math.abs((scroll.clientWidth || 0) - width) > 1) resize(); }).observe(scroll);
    } else {
      window.addEventListener('resize', resize);
    }
    resize();

    return {
      focus: setFocus,
      highlight: (name) => {
        const i = tracks.findIndex((t) => t.name === name);
        highlighted = i;
        sec.dataset.highlighted = i >= 0 ? name : '';
        draw();
        if (i >= 0) {
          scroll.scrollTop = Math.max(0, tracks[i].y - height / 2);
          sec.scrollIntoView({ block: 'nearest' });
        }
      }
    };
  }

  // ---- critical path overlay ----------------------------------------------------------------------

  // Tol's vibrant magenta: apart from every interval kind's colour, and drawn as a band, not a box.
  const CRITICAL_COLOR = '#EE3377';

  /**
   * The analysis's critical path (critical_path.segments) over the timeline: a band along the top of
   * the row of each thread on the path while it is on it, joined by a vertical line at each hand-over
   * to another thread. On when the analysis has segments; a legend checkbox turns it off. Returns
   * what the timeline calls from its draw().
   */
  function criticalOverlay(sec, analysis, tracks, tl, legend, redraw) {
    const cp = analysis && analysis.critical_path;
    const byName = new Map();
    tracks.forEach((t, i) => { if (!byName.has(t.name)) byName.set(t.name, i); });
    const origin = num(tl.origin_ns);
    const segs = [];
    for (const g of cp && Array.isArray(cp.segments) ? cp.segments : []) {
      const ti = byName.get(String(g.thread));
      if (ti !== undefined) segs.push({ ti: ti, s: num(g.start_ns) - origin, e: num(g.end_ns) - origin });
    }
    sec.dataset.criticalSegments = String(segs.length);
    sec.dataset.critical = '';
    const overlay = { on: segs.length > 0, draw: () => {} };
    if (!segs.length) return overlay;
    const box = el('input', { type: 'checkbox', id: 'tl-critical', checked: 'checked' });
    box.addEventListener('change', () => { overlay.on = box.checked; redraw(); });
    const left = num(cp.segments_truncated);
    legend.append(el('label', { class: 'key', title: 'The chain of work that decides the run\'s length (see Critical path below)' },
      box, el('span', { class: 'swatch', style: 'background:' + CRITICAL_COLOR + ';height:3px' }),
      'critical path' + (left > 0 ? ' (its ' + fmtCount(left) + ' oldest segments, ' + fmtNs(num(cp.truncated_ns)) + ', not shown)' : '')));
    overlay.draw = (ctx, v) => {
      sec.dataset.critical = overlay.on ? 'on' : 'off';
      sec.dataset.criticalProbe = '';
      if (!overlay.on) return;
      const band = Math.max(2, Math.floor(v.trackH / 5));
      const rowTop = (g) => tracks[g.ti].y - v.offset + v.gap / 2;
      ctx.save();
      ctx.beginPath();
      ctx.rect(v.left, v.top, v.width - v.left, v.height - v.top);
      ctx.clip();
      ctx.fillStyle = CRITICAL_COLOR;
      ctx.strokeStyle = CRITICAL_COLOR;
      ctx.lineWidth = 1.5;
      ctx.beginPath();
      let prev = null;
      let probe = null;
      for (const g of segs) {
        if (tracks[g.ti].y === undefined) continue;
        if (g.e >= v.v0 && g.s <= v.v1) {
          const y = rowTop(g);
          const x0 = Math.max(v.left, v.xOf(g.s));
          const x1 = Math.min(v.width, v.xOf(g.e));
          ctx.fillRect(x0, y, Math.max(1, x1 - x0), band);
          if (!probe && x1 - x0 >= 4 && y >= v.top && y + band <= v.height) probe = [Math.round((x0 + x1) / 2), Math.floor(y + band / 2)];
          if (prev && prev.ti !== g.ti) {
            const x = v.xOf(g.s);
            ctx.moveTo(x, rowTop(prev) + band / 2);
            ctx.lineTo(x, y + band / 2);
          }
        }
        prev = g;
      }
      ctx.stroke();
      ctx.restore();
      sec.dataset.criticalProbe = probe ? probe.join(',') : '';
    };
    return overlay;
  }

  // ---- comparison page -------------------------------------------------------------------------------

  function renderDiff(app, data) {
    const A = data.a || {};
    const B = data.b || {};
    const baseA = num(A.time_ns) || 1;
    const baseB = num(B.time_ns) || 1;
    app.append(el('header', { class: 'top' }, el('h1', { text: 'Weft comparison' }),
      el('div', { class: 'diff-head' },
        el('div', null, el('h2', { text: 'A (baseline)' }), traceFacts(A)),
        el('div', null, el('h2', { text: 'B (compared)' }), traceFacts(B)))));
    document.title = 'Weft comparison';

    const fa = propertyForest(A);
    const fb = propertyForest(B);
    const byId = new Map();
    const visit = (forest, side) => {
      const walk = (n, parentKey) => {
        let m = byId.get(n.key);
        if (!m) {
          m = { key: n.key, name: n.p.name || n.key, children: [], parent: null, parentKey: parentKey, expanded: false, a: null, b: null };
          byId.set(n.key, m);
        }
        m[side] = n;
        n.children.forEach((c) => walk(c, n.key));
      };
      forest.roots.forEach((r) => walk(r, null));
    };
    visit(fa, 'a');
    visit(fb, 'b');
    const roots = [];
    for (const m of byId.values()) {
      const p = m.parentKey !== null ? byId.get(m.parentKey) : null;
      if (p) { m.parent = p; p.children.push(m); } else roots.push(m);
    }
    const time = byId.get('time');
    if (time) time.expanded = true;

    const values = (m) => {
      const open = m.children.length && m.expanded;
      const av = m.a ? (open ? m.a.excl : m.a.incl) : null;
      const bv = m.b ? (open ? m.b.excl : m.b.incl) : null;
      return { a: av, b: bv, pa: av === null ? null : (100 * av) / baseA, pb: bv === null ? null : (100 * bv) / baseB };
    };

    const sec = el('section', { id: 'diff-properties', 'aria-label': 'Properties compared' },
      el('h2', { text: 'Properties' }),
      el('p', { class: 'caption muted', text: '% of each run\'s CPU allocation time; Δ = B − A in percentage points (▲ more, ▼ less). Collapsed: inclusive, expanded: exclusive.' }));
    sec.append(el('div', { class: 'colhead', 'aria-hidden': 'true' },
      el('span', { class: 'name', text: 'Property' }), el('span', { class: 'dval', text: 'A' }), el('span', { class: 'dval', text: 'B' }),
      el('span', { class: 'dval', text: 'Δ' }), el('span', { class: 'dval', text: 'Δ time' })));
    const host = el('div', { class: 'scroll diff-tree' });
    sec.append(host);
    app.append(sec);
    const tree = makeTree(host, {
      label: 'Properties compared',
      renderRow: (m, row) => {
        const v = values(m);
        const d = v.pa !== null && v.pb !== null ? v.pb - v.pa : null;
        const dt = v.a !== null && v.b !== null ? v.b - v.a : null;
        const arrow = d === null ? '' : d > 0.005 ? '▲ ' : d < -0.005 ? '▼ ' : '';
        row.append(
          el('span', { class: 'name', text: m.name, title: m.key }),
          el('span', { class: 'dval', text: v.pa === null ? 'only in B' : fmtPct(v.pa), title: v.a === null ? '' : fmtNs(v.a) }),
          el('span', { class: 'dval', text: v.pb === null ? 'only in A' : fmtPct(v.pb), title: v.b === null ? '' : fmtNs(v.b) }),
          el('span', { class: 'dval ' + (arrow === '▲ ' ? 'up' : arrow === '▼ ' ? 'down' : ''), text: d === null ? '–' : arrow + (d > 0 ? '+' : '') + d.toFixed(2) + ' pp' }),
          el('span', { class: 'dval', text: dt === null ? '–' : (dt > 0 ? '+' : '') + fmtNs(dt) }));
        row.dataset.id = m.key;
        row.dataset.a = v.a === null ? '' : String(v.a);
        row.dataset.b = v.b === null ? '' : String(v.b);
        row.dataset.delta = dt === null ? '' : String(dt);
      }
    });
    tree.setRoots(roots);
    sec.dataset.properties = String(byId.size);

    // Regions compared, by name and location.
    const rsec = el('section', { id: 'diff-regions', 'aria-label': 'Parallel regions compared' }, el('h2', { text: 'Parallel regions' }));
    app.append(rsec);
    const keyOf = (r) => String(r.name) + ' @ ' + String(r.location || '');
    const rmap = new Map();
    for (const [side, an] of [['a', A], ['b', B]]) {
      for (const r of Array.isArray(an.regions) ? an.regions : []) {
        const k = keyOf(r);
        if (!rmap.has(k)) rmap.set(k, { name: r.name, location: r.location || '', a: null, b: null });
        rmap.get(k)[side] = r;
      }
    }
    rsec.dataset.regions = String(rmap.size);
    if (!rmap.size) {
      rsec.append(el('p', { class: 'muted', text: 'Neither analysis has parallel regions.' }));
    } else {
      const table = el('table', { id: 'diff-regions-table' });
      table.append(el('thead', null, el('tr', null, el('th', { text: 'Region' }), el('th', { text: 'Location' }),
        el('th', { class: 'num', text: 'Imbalance A' }), el('th', { class: 'num', text: 'Imbalance B' }), el('th', { class: 'num', text: 'Δ' }),
        el('th', { class: 'num', text: 'Lost A' }), el('th', { class: 'num', text: 'Lost B' }), el('th', { class: 'num', text: 'Δ lost' }))));
      const body = el('tbody');
      const rowsSorted = [...rmap.values()].sort((x, y) =>
        Math.max(num(y.a && y.a.lost_ns), num(y.b && y.b.lost_ns)) - Math.max(num(x.a && x.a.lost_ns), num(x.b && x.b.lost_ns)));
      for (const r of rowsSorted) {
        const ia = r.a ? num(r.a.imbalance) : null;
        const ib = r.b ? num(r.b.imbalance) : null;
        const la = r.a ? num(r.a.lost_ns) : null;
        const lb = r.b ? num(r.b.lost_ns) : null;
        const di = ia !== null && ib !== null ? ib - ia : null;
        const dl = la !== null && lb !== null ? lb - la : null;
        const cls = (d) => (d === null || d === 0 ? 'num' : d > 0 ? 'num up' : 'num down');
        const sign = (d, f) => (d === null ? '–' : (d > 0 ? '▲ +' : d < 0 ? '▼ ' : '') + f(d));
        body.append(el('tr', { 'data-region': r.name },
          el('td', { text: r.name }), el('td', { class: 'mono', text: r.location || '–' }),
          el('td', { class: 'num', text: ia === null ? 'only in B' : ia.toFixed(2) }),
          el('td', { class: 'num', text: ib === null ? 'only in A' : ib.toFixed(2) }),
          el('td', { class: cls(di), text: sign(di, (d) => d.toFixed(2)) }),
          el('td', { class: 'num', text: la === null ? '–' : fmtNs(la) }),
          el('td', { class: 'num', text: lb === null ? '–' : fmtNs(lb) }),
          el('td', { class: cls(dl), text: sign(dl, fmtNs) })));
      }
      table.append(body);
      rsec.append(el('div', { class: 'scroll' }, table));
    }
    renderNotes(app, [A, B]);
    tree.select(time || roots[0] || null, { silent: true });
  }

  // ---- start -----------------------------------------------------------------------------------------

  function start() {
    const app = document.getElementById('app');
    const data = JSON.parse(document.getElementById('weft-data').textContent);
    app.dataset.page = data.page;
    if (data.page === 'diff') renderDiff(app, data);
    else renderReport(app, data);
    if (data.history && window.weftHistory) window.weftHistory(app, data, { el, fmtNs });
    app.dataset.ready = '1';
    app.dataset.renderMs = String(Math.round(performance.now()));
  }

  start();
})();
