// The bench preloads' one way out (gc-pauses.cjs, heap-sample.cjs, loop-delay.cjs, time-queries.cjs): `write()` runs once, when the
// process exits or is told to stop (SIGTERM: bench:api stops its instances so), whichever comes first.
module.exports = function writeAtExit(write) {
  let written = false;
  const once = () => {
    if (written) return;
    written = true;
    write();
  };
  process.on('exit', once);
  process.on('SIGTERM', once);
};
