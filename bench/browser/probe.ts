// What the browser benchmark installs in the page before the app's scripts run. Kept as plain
// JavaScript text: functions passed through Playwright are serialised with toString(), and the
// TypeScript loader's helpers (e.g. esbuild's __name) do not exist in the page.
//
// window.__probe collects
// - longTasks: every main-thread task over 50 ms (PerformanceObserver 'longtask', buffered);
// - drawn: each time the flame graph's aria-busy turns "false", with the time and document.title;
// - graphsDrawn: the same for the comparison's graphs ("Baseline flame graph", "Comparison flame
//   graph", "Differential flame graph"), with their label;
// - marks: the app's performance marks (flameview:open / received / committed);
// - frameWork: per animation frame, the milliseconds spent in rAF callbacks plus the input
//   handlers (wheel, pointer, mouse, key, click) that ran since the previous frame.

export interface PageProbe {
  longTasks: { start: number; duration: number }[];
  drawn: { t: number; title: string }[];
  graphsDrawn: { t: number; label: string }[];
  marks: { name: string; t: number; detail: unknown }[];
  frameWork: number[];
  reset(): void;
}

export const INIT_SCRIPT = String.raw`
(() => {
  const probe = { longTasks: [], drawn: [], graphsDrawn: [], frameWork: [] };
  Object.defineProperty(probe, 'marks', {
    get() {
      return performance.getEntriesByType('mark').map((m) => ({ name: m.name, t: m.startTime, detail: m.detail }));
    },
  });
  probe.reset = () => {
    probe.longTasks.length = 0;
    probe.drawn.length = 0;
    probe.graphsDrawn.length = 0;
    probe.frameWork.length = 0;
    performance.clearMarks();
  };
  window.__probe = probe;
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) probe.longTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch (e) {}

  const graphs = new Set(['Baseline flame graph', 'Comparison flame graph', 'Differential flame graph']);
  const check = (el) => {
    if (!el || !el.getAttribute || el.getAttribute('aria-busy') !== 'false') return;
    const label = el.getAttribute('aria-label');
    // The first picture (src/first-picture.ts) is the graph on screen until the app's replaces it.
    if (label === 'Flame graph' || el.hasAttribute('data-first-picture')) probe.drawn.push({ t: performance.now(), title: document.title });
    else if (graphs.has(label)) probe.graphsDrawn.push({ t: performance.now(), label });
  };
  new MutationObserver((records) => {
    for (const r of records) {
      if (r.type === 'attributes') check(r.target);
      else for (const n of r.addedNodes) if (n.nodeType === 1) { check(n); if (n.querySelectorAll) n.querySelectorAll('[aria-busy]').forEach(check); }
    }
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-busy'] });

  let pending = 0;
  let frameTs = -1;
  let acc = 0;
  const flush = () => {
    if (frameTs >= 0 && acc > 0) probe.frameWork.push(acc);
    acc = 0;
  };
  Object.defineProperty(probe, 'frameWorkFlushed', { get() { flush(); frameTs = -1; return probe.frameWork; } });
  const raf = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (cb) => raf((ts) => {
    if (ts !== frameTs) {
      flush();
      frameTs = ts;
      acc = pending;
      pending = 0;
    }
    const t0 = performance.now();
    try {
      cb(ts);
    } finally {
      acc += performance.now() - t0;
    }
  });
  const timed = new Set(['wheel', 'pointermove', 'pointerdown', 'pointerup', 'mousemove', 'mousedown', 'mouseup', 'click', 'dblclick', 'keydown']);
  const wrappers = new WeakMap();
  const add = EventTarget.prototype.addEventListener;
  const remove = EventTarget.prototype.removeEventListener;
  EventTarget.prototype.addEventListener = function (type, listener, options) {
    if (!timed.has(type) || !listener) return add.call(this, type, listener, options);
    let w = wrappers.get(listener);
    if (!w) {
      w = function (event) {
        const t0 = performance.now();
        try {
          return typeof listener === 'function' ? listener.call(this, event) : listener.handleEvent(event);
        } finally {
          pending += performance.now() - t0;
        }
      };
      wrappers.set(listener, w);
    }
    return add.call(this, type, w, options);
  };
  EventTarget.prototype.removeEventListener = function (type, listener, options) {
    return remove.call(this, type, (listener && wrappers.get(listener)) || listener, options);
  };
})();
`;
