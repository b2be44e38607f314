// Preload for the service (BENCH_NODE_ARGS="--require <abs path>/bench/time-queries.cjs", QDIR=<dir>): times each SQL
// statement the instance sends through pg, from the call to its answer (the database's time and the wait for a pooled
// connection), and writes the count, p50, p95 and p99 per statement (its first 70 characters; 50 calls or more) to
// QDIR/t-<pid>.json when it ends. Beside count-queries.cjs: that one says how many, this one how long. See
// bench/README.md ("bench:api", looking into a loss).
const fs = require('fs');
const writeAtExit = require('./write-at-exit.cjs');
const pg = require(require.resolve('pg', { paths: [process.cwd()] }));

const times = new Map();
const record = (key, startedAt) => {
  const ms = Number(process.hrtime.bigint() - startedAt) / 1e6;
  let list = times.get(key);
  if (!list) times.set(key, (list = []));
  list.push(ms);
};

const original = pg.Client.prototype.query;
pg.Client.prototype.query = function (query, ...rest) {
  const text = typeof query === 'string' ? query : query && query.text;
  const key = text ? text.replace(/\s+/g, ' ').slice(0, 70) : '(no text)';
  const startedAt = process.hrtime.bigint();
  // pg answers through a callback argument, a query object's callback, or a promise
  const callbackAt = rest.findIndex((r) => typeof r === 'function');
  if (callbackAt >= 0) {
    const callback = rest[callbackAt];
    rest[callbackAt] = function (...args) {
      record(key, startedAt);
      return callback.apply(this, args);
    };
    return original.call(this, query, ...rest);
  }
  if (query && typeof query.callback === 'function') {
    const callback = query.callback;
    query.callback = function (...args) {
      record(key, startedAt);
      return callback.apply(this, args);
    };
    return original.call(this, query, ...rest);
  }
  const answer = original.call(this, query, ...rest);
  if (answer && typeof answer.then === 'function')
    answer.then(
      () => record(key, startedAt),
      () => record(key, startedAt),
    );
  return answer;
};

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];

writeAtExit(() => {
  const rows = [];
  for (const [statement, list] of times) {
    if (list.length < 50) continue;
    list.sort((a, b) => a - b);
    const at = (p) => Number(percentile(list, p).toFixed(2));
    rows.push({ statement, count: list.length, p50: at(50), p95: at(95), p99: at(99) });
  }
  rows.sort((a, b) => b.count - a.count);
  fs.writeFileSync(`${process.env.QDIR}/t-${process.pid}.json`, JSON.stringify(rows, null, 1));
});
