/*
 * CPU profiling for a platform process under the benchmark (`pnpm bench --profile`). Node 20 refuses
 * --cpu-prof in NODE_OPTIONS, so this file is preloaded instead (NODE_OPTIONS=--require …): it starts
 * the V8 sampling profiler through node:inspector and, when the process exits, writes
 * <BENCH_CPU_PROFILE_DIR>/cpu-<pid>.cpuprofile (the same format --cpu-prof writes; open it in Chrome
 * DevTools or summarise it with bench/harness/cpu-profile.ts).
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const inspector = require('node:inspector');

const dir = process.env.BENCH_CPU_PROFILE_DIR;
if (dir) {
  const session = new inspector.Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 1000 });
  session.post('Profiler.start');
  let written = false;
  process.on('exit', () => {
    if (written) return;
    written = true;
    // In-thread inspector sessions answer synchronously, so this completes inside the exit handler.
    session.post('Profiler.stop', (error, result) => {
      if (!error && result) fs.writeFileSync(path.join(dir, `cpu-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}
