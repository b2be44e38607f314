// Preload for the service (BENCH_NODE_ARGS="--require <abs path>/bench/gc-pauses.cjs", QDIR=<dir>): records every
// garbage collection's pause (perf_hooks 'gc' entries) and writes their count, total, largest and how many took over
// 10 and 50 ms, by kind, to QDIR/gc-<pid>.json when the process ends. See bench/README.md (2026-11-26, evening).
const fs = require('fs');
const writeAtExit = require('./write-at-exit.cjs');
const { PerformanceObserver, constants } = require('perf_hooks');
const kinds = {
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
};
const stats = {};
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    const kind = kinds[e.detail ? e.detail.kind : e.kind] || 'other';
    const s = (stats[kind] ??= { count: 0, totalMs: 0, maxMs: 0, over10ms: 0, over50ms: 0 });
    s.count++;
    s.totalMs += e.duration;
    s.maxMs = Math.max(s.maxMs, e.duration);
    if (e.duration > 10) s.over10ms++;
    if (e.duration > 50) s.over50ms++;
  }
}).observe({ entryTypes: ['gc'] });
writeAtExit(() => fs.writeFileSync(`${process.env.QDIR}/gc-${process.pid}.json`, JSON.stringify(stats, null, 1)));
