// Preload for the service (BENCH_NODE_ARGS="--require <abs path>/bench/loop-delay.cjs", QDIR=<dir>): how late the
// event loop ran. A 20 ms timer records each lateness of 50 ms or more with its wall-clock time (ms since the epoch),
// beside perf_hooks' delay histogram (max and p99). Written to QDIR/loop-delay-<pid>.json when the process ends; the
// start (loading modules, building the app) is in it too, so keep the stalls of the pass by their times.
// See bench/README.md (2026-11-27, second session: the paced spikes).
const fs = require('fs');
const writeAtExit = require('./write-at-exit.cjs');
const { monitorEventLoopDelay, performance } = require('perf_hooks');
const TICK_MS = 20;
const histogram = monitorEventLoopDelay({ resolution: 10 });
histogram.enable();
const stalls = [];
let last = performance.now();
setInterval(() => {
  const now = performance.now();
  const lateMs = now - last - TICK_MS;
  if (lateMs >= 50) stalls.push({ at: Math.round(performance.timeOrigin + now), lateMs: Math.round(lateMs) });
  last = now;
}, TICK_MS).unref();
writeAtExit(() => {
  const out = { maxMs: histogram.max / 1e6, p99Ms: histogram.percentile(99) / 1e6, endedAt: Date.now(), stalls };
  fs.writeFileSync(`${process.env.QDIR}/loop-delay-${process.pid}.json`, JSON.stringify(out, null, 1));
});
