/*
 * Preloaded into every platform process the benchmark starts (NODE_OPTIONS=--require …): SIGUSR2 runs a
 * full garbage collection. The mixed scenario reads each process's RSS right after one, through its window,
 * so that memory still held (a leak) is told apart from where V8's heap sizing happens to stand (under load
 * the committed heap swings by 100 MB with the live data flat). With BENCH_MEMORY_DIR set, the process also
 * writes its memory after the collection (`process.memoryUsage()`) to `<dir>/<pid>.json`: the live heap
 * beside the RSS.
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const v8 = require('node:v8');
const vm = require('node:vm');

v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc');
process.on('SIGUSR2', () => {
  collectGarbage();
  const dir = process.env.BENCH_MEMORY_DIR;
  if (dir) fs.writeFileSync(path.join(dir, `${process.pid}.json`), JSON.stringify(process.memoryUsage()));
});
