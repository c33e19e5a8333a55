/* Weft report: the history section, drawn when the page was written with a store (weft analyze
   --store DIR --format html). For each top property: a small inline SVG chart of its value over
   the program's last runs (and its heaviest call paths), the current run marked, and a table of
   the same values with each run's label. report.js calls window.weftHistory after its own panes. */
(function () {
  'use strict';

  // The SVG namespace as the HTML parser assigns it (the page holds no address of any kind).
  const SVG = (() => {
    const d = document.createElement('div');
    d.innerHTML = '<svg></svg>';
    return d.firstChild.namespaceURI;
  })();
  // Okabe-Ito colours, each line also dashed differently, so that they part without colour too.
  const LINES = [
    { color: '#1b1b1b', dash: '' },
    { color: '#0072b2', dash: '6 3' },
    { color: '#d55e00', dash: '2 3' },
    { color: '#009e73', dash: '8 3 2 3' }
  ];
  const W = 520;
  const H = 150;
  const PAD = { left: 64, right: 12, top: 10, bottom: 22 };

  function svg(tag, attrs) {
    const e = document.createElementNS(SVG, tag);
    for (const k of Object.keys(attrs || {})) e.setAttribute(k, String(attrs[k]));
    return e;
  }

  /** What names a run in the table: its commit label, else all its labels, else nothing. */
  function runLabel(run) {
    const l = run.labels || {};
    for (const k of ['commit', 'git.commit', 'git_commit', 'revision']) {
      if (l[k]) return /^[0-9a-f]{20,}$/i.test(l[k]) ? l[k].slice(0, 12) : l[k];
    }
    return Object.keys(l).map((k) => k + '=' + l[k]).join(', ');
  }

  function runTime(run) {
    const ns = run.started_at_ns !== null && run.started_at_ns !== undefined ? run.started_at_ns : run.stored_at_ns;
    const d = new Date(Number(ns) / 1e6);
    return Number.isFinite(d.getTime()) ? d.toISOString().slice(0, 19).replace('T', ' ') : '–';
  }

  function lastFrame(callpath) {
    if (!callpath) return '(outside any recorded region)';
    const frames = callpath.split(' > ');
    return frames[frames.length - 1];
  }

  /** The call paths worth a line and a column: not a single one that is the whole property. */
  function shownPaths(prop) {
    const t = prop.total.values;
    const same = (c) => c.values.every((v, i) => Number(v) === Number(t[i]));
    return prop.callpaths.length === 1 && same(prop.callpaths[0]) ? [] : prop.callpaths;
  }

  function chart(h, prop, name, fmtNs) {
    const series = [prop.total].concat(shownPaths(prop));
    const n = h.runs.length;
    let max = 0;
    for (const s of series) for (const v of s.values) max = Math.max(max, Number(v));
    if (max <= 0) max = 1;
    const x = (i) => PAD.left + (n === 1 ? 0 : (i * (W - PAD.left - PAD.right)) / (n - 1));
    const y = (v) => PAD.top + (1 - Number(v) / max) * (H - PAD.top - PAD.bottom);
    const g = svg('svg', {
      class: 'history-chart', viewBox: '0 0 ' + W + ' ' + H, width: W, height: H, role: 'img',
      'aria-label': name + ' over the last ' + n + ' runs' + (h.current >= 0 ? ', this run marked' : '')
    });
    const axis = { class: 'axis', stroke: '#777', 'stroke-width': 1 };
    g.append(svg('line', Object.assign({ x1: PAD.left, y1: y(0), x2: W - PAD.right, y2: y(0) }, axis)));
    g.append(svg('line', Object.assign({ x1: PAD.left, y1: y(0), x2: PAD.left, y2: y(max) }, axis)));
    for (const [v, label] of [[0, '0'], [max, fmtNs(max)]]) {
      const t = svg('text', { x: PAD.left - 6, y: y(v) + 4, 'text-anchor': 'end', class: 'tick' });
      t.textContent = label;
      g.append(t);
    }
    const older = svg('text', { x: PAD.left, y: H - 6, class: 'tick' });
    older.textContent = 'older';
    const newer = svg('text', { x: W - PAD.right, y: H - 6, 'text-anchor': 'end', class: 'tick' });
    newer.textContent = 'newer';
    g.append(older, newer);
    if (h.current >= 0) {
      g.append(svg('line', {
        class: 'current-run', x1: x(h.current), y1: PAD.top, x2: x(h.current), y2: y(0),
        stroke: '#0057a3', 'stroke-width': 6, 'stroke-opacity': 0.18
      }));
    }
    series.forEach((s, k) => {
      const style = LINES[k % LINES.length];
      const pts = s.values.map((v, i) => x(i).toFixed(1) + ',' + y(v).toFixed(1)).join(' ');
      g.append(svg('polyline', {
        class: 'series', 'data-series': k, points: pts, fill: 'none', stroke: style.color,
        'stroke-width': k === 0 ? 2 : 1.5, 'stroke-dasharray': style.dash
      }));
      s.values.forEach((v, i) => {
        const here = i === h.current;
        const dot = svg('circle', {
          cx: x(i), cy: y(v), r: here ? 5 : 2.5, fill: here ? '#fff' : style.color,
          stroke: style.color, 'stroke-width': here ? 2.5 : 1, class: here ? 'point current' : 'point'
        });
        const title = svg('title', {});
        title.textContent = (s.callpath === undefined ? name : lastFrame(s.callpath)) + ': ' + fmtNs(v) +
          '\n' + runTime(h.runs[i]) + (runLabel(h.runs[i]) ? ' · ' + runLabel(h.runs[i]) : '') +
          (here ? '\nthis run' : '');
        dot.append(title);
        g.append(dot);
      });
    });
    return g;
  }

  function key(k, text, title) {
    const style = LINES[k % LINES.length];
    const sample = svg('svg', { width: 26, height: 10, 'aria-hidden': 'true' });
    sample.append(svg('line', {
      x1: 1, y1: 5, x2: 25, y2: 5, stroke: style.color, 'stroke-width': 2, 'stroke-dasharray': style.dash
    }));
    const span = document.createElement('span');
    span.className = 'key';
    if (title) span.title = title;
    span.append(sample, document.createTextNode(text));
    return span;
  }

  function trendNote(s, fmtNs, el) {
    const sign = s.change_ns >= 0 ? '+' : '−';
    return el('span', { class: s.grew ? 'warn' : 'muted' },
      (s.grew ? 'grew ' : 'change ') + sign + fmtNs(Math.abs(s.change_ns)) + ' (Mann-Kendall p ' + Number(s.p).toFixed(3) + ')');
  }

  function table(h, prop, name, fmtNs, el) {
    const paths = shownPaths(prop);
    const head = el('tr', null,
      el('th', { class: 'num', text: '#', title: 'runs before the newest' }),
      el('th', { text: 'run (UTC)' }),
      el('th', { text: 'label' }),
      el('th', { class: 'num', text: name }));
    for (const c of paths) head.append(el('th', { class: 'num mono', title: c.callpath, text: lastFrame(c.callpath) }));
    const body = el('tbody');
    for (let i = h.runs.length - 1; i >= 0; i--) {
      const run = h.runs[i];
      const here = i === h.current;
      const tr = el('tr', { class: here ? 'current' : null, 'aria-current': here ? 'true' : null, 'data-run': run.run_id },
        el('td', { class: 'num', text: String(i - h.runs.length + 1) }),
        el('td', { title: run.run_id }, runTime(run), here ? el('strong', { class: 'this-run', text: ' this run' }) : null),
        el('td', { class: 'mono', title: Object.keys(run.labels || {}).map((k) => k + '=' + run.labels[k]).join('\n'), text: runLabel(run) }),
        el('td', { class: 'num', 'data-ns': String(prop.total.values[i]), text: fmtNs(prop.total.values[i]) }));
      for (const c of paths) tr.append(el('td', { class: 'num', 'data-ns': String(c.values[i]), text: fmtNs(c.values[i]) }));
      body.append(tr);
    }
    return el('div', { class: 'scroll history-scroll' }, el('table', { class: 'history-table' }, el('thead', null, head), body));
  }

  window.weftHistory = function (app, data, helpers) {
    const { el, fmtNs } = helpers;
    const h = data.history;
    const names = {};
    for (const p of ((data.analysis || {}).properties || [])) names[p.id] = p.name || p.id;
    const program = h.main_class || '(unknown main class)';
    const sec = el('section', { id: 'history', 'aria-labelledby': 'h-history' },
      el('h2', { id: 'h-history', text: 'History' }));
    const panes = app.querySelector('section.panes');
    if (panes) panes.after(sec);
    else app.append(sec);
    if (h.runs.length < 2) {
      sec.append(el('p', { id: 'history-none', class: 'muted',
        text: 'No history yet: ' + (h.runs.length ? 'this is the only run' : 'no run') + ' of ' + program + ' in the store ' + h.store + '.' }));
      return;
    }
    sec.append(el('p', { class: 'caption' },
      'The last ' + h.runs.length + ' runs of ', el('code', { text: program }), ' in the store ', el('code', { text: h.store }),
      ', oldest to newest: each property with its subtree, and the call paths with the most of it in this run.' +
      (h.current < 0 ? ' This run is older than all of them and not shown.' : '')));
    if (!h.properties.length) {
      sec.append(el('p', { class: 'muted', text: 'No property has time in this run.' }));
      return;
    }
    const grid = el('div', { class: 'history-grid' });
    for (const prop of h.properties) {
      const name = names[prop.id] || prop.id;
      const legend = el('div', { class: 'legend' }, key(0, name + ' (total)'));
      shownPaths(prop).forEach((c, k) => legend.append(key(k + 1, lastFrame(c.callpath), c.callpath)));
      grid.append(el('figure', { class: 'history-prop', 'data-property': prop.id },
        el('h3', null, name + ' ', el('code', { class: 'muted', text: prop.id }), ' ', trendNote(prop.total, fmtNs, el)),
        chart(h, prop, name, fmtNs), legend, table(h, prop, name, fmtNs, el)));
    }
    sec.append(grid);
  };
})();
