/*
 * Preloaded into every platform process the benchmark starts (NODE_OPTIONS=--require …): SIGUSR2 runs a
 * full garbage collection. The mixed scenario takes its leak readings this way, so that memory still held
 * (a leak) is told apart from where V8's heap sizing happens to stand (under load the committed heap swings
 * by 30–100 MB with the live data flat). With BENCH_MEMORY_DIR set, the process writes `<dir>/<pid>.json`:
 * `live_heap` — the V8 heap's live data right after the collection (`heapUsed`) — and, `SETTLE_MS` later
 * (V8 hands the pages it freed back to the system on a background task, so RSS right after a collection
 * still holds them), `process.memoryUsage()` and the anonymous and file-backed parts of the resident
 * memory from /proc/self/status, all read at that one moment, and the size of V8's young generation
 * (`new_space`: request buffers that die young are freed when it is collected), and the anonymous resident
 * memory split by where it is mapped (`anon_by_region`, from /proc/self/smaps).
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const v8 = require('node:v8');
const vm = require('node:vm');

const SETTLE_MS = 1500;

v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc');

function residentKb(field, status) {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  return match ? Number(match[1]) : null;
}

/*
 * On x64 Linux V8 places its heap pages at random hints below 2^46 (kAllocationRandomAddressMax), and its
 * code pages — the only anonymous executable memory in a Node process — in a code range near the
 * libraries; mappings made without a hint — glibc's thread arenas, the blocks it maps on their own, thread
 * stacks — land just below the libraries, above 2^46. So the anonymous resident memory splits into `v8`
 * (the heap's and the code's pages, resident, against `heapTotal` committed), `main_arena` (glibc's
 * `[heap]`), `mapped` (everything else without a file: other arenas, large blocks, stacks) and
 * `file_private` (the written pages of a file's mapping: a library's data).
 */
const V8_ADDRESS_LIMIT = 2n ** 46n;

function anonymousByRegion(smaps) {
  const regions = { v8: 0, main_arena: 0, mapped: 0, file_private: 0 };
  for (const mapping of smaps.split(/\n(?=[0-9a-f]+-[0-9a-f]+ )/)) {
    const anonymousKb = Number(/\nAnonymous:\s+(\d+) kB/.exec(mapping)?.[1] ?? 0);
    if (anonymousKb === 0) continue;
    const [range, permissions, , , , name] = mapping.slice(0, mapping.indexOf('\n')).split(/\s+/);
    const start = BigInt(`0x${range.slice(0, range.indexOf('-'))}`);
    const isV8 = start < V8_ADDRESS_LIMIT || permissions.includes('x');
    const region = name === '[heap]' ? 'main_arena' : name && !name.startsWith('[') ? 'file_private' : isV8 ? 'v8' : 'mapped';
    regions[region] += anonymousKb * 1024;
  }
  return regions;
}

process.on('SIGUSR2', () => {
  collectGarbage();
  const dir = process.env.BENCH_MEMORY_DIR;
  if (!dir) return;
  const liveHeap = process.memoryUsage().heapUsed;
  setTimeout(() => {
    const status = fs.readFileSync('/proc/self/status', 'utf8');
    const reading = {
      live_heap: liveHeap,
      ...process.memoryUsage(),
      rss_anon: residentKb('RssAnon', status) * 1024,
      rss_file: residentKb('RssFile', status) * 1024,
      new_space: v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? null,
      anon_by_region: anonymousByRegion(fs.readFileSync('/proc/self/smaps', 'utf8')),
    };
    fs.writeFileSync(path.join(dir, `${process.pid}.json`), JSON.stringify(reading));
  }, SETTLE_MS).unref();
});
