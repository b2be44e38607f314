// Preload for the service (BENCH_NODE_ARGS="--require <abs path>/bench/count-queries.cjs", QDIR=<dir>): counts the SQL statements each
// instance sends through pg, by text, and writes them to QDIR/q-<pid>.json when it ends. See bench/README.md (2026-11-26).
const fs = require('fs');
const pg = require(require.resolve('pg', { paths: [process.cwd()] }));
const counts = new Map();
const orig = pg.Client.prototype.query;
pg.Client.prototype.query = function (q, ...rest) {
  const text = typeof q === 'string' ? q : q && q.text;
  if (text) {
    const k = text.replace(/\s+/g, ' ').slice(0, 140);
    counts.set(k, (counts.get(k) || 0) + 1);
  }
  return orig.call(this, q, ...rest);
};
const dump = () =>
  fs.writeFileSync(
    `${process.env.QDIR}/q-${process.pid}.json`,
    JSON.stringify(
      [...counts].sort((a, b) => b[1] - a[1]),
      null,
      1,
    ),
  );
process.on('exit', dump);
process.on('SIGTERM', () => {
  dump();
});
