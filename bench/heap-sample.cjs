// Preload for the service (BENCH_NODE_ARGS="--require <abs path>/bench/heap-sample.cjs", QDIR=<dir>): V8's sampling
// heap profiler, counting the objects the collector has already taken as well (node --heap-prof keeps only the live
// ones), from HEAP_SAMPLE_AFTER_MS (default 8000: after the start) until the process ends, to QDIR/heap-<pid>.heapprofile.
// What each function allocates is what keeps the collector busy: `npx tsx bench/profile-top.ts <QDIR>` sums it.
const fs = require('fs');
const writeAtExit = require('./write-at-exit.cjs');
const inspector = require('inspector');
const session = new inspector.Session();
session.connect();
session.post('HeapProfiler.enable');
let sampling = false;
setTimeout(
  () => {
    const options = {
      samplingInterval: Number(process.env.HEAP_SAMPLE_INTERVAL ?? 16384),
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    };
    session.post('HeapProfiler.startSampling', options, (err) => {
      if (err) console.error('heap-sample:', err.message);
      else sampling = true;
    });
  },
  Number(process.env.HEAP_SAMPLE_AFTER_MS ?? 8000),
).unref();
writeAtExit(() => {
  if (!sampling) return;
  // An in-process session answers synchronously: the file is written before the process goes.
  session.post('HeapProfiler.stopSampling', (err, result) => {
    if (err) return console.error('heap-sample:', err.message);
    fs.writeFileSync(`${process.env.QDIR}/heap-${process.pid}.heapprofile`, JSON.stringify(result.profile));
  });
});
