/**
 * Node.js flags every service process runs with (deploy/Dockerfile's CMDs, and the stack tests and the
 * benchmark start). They are V8 options that NODE_OPTIONS does not accept, so each launcher passes them.
 *
 * `--initial-old-space-size=128`: the old generation may reach 128 MB before V8 collects it for size. A
 * streamed upload turns over ~300 MiB/s of request-body buffers; with the default, V8's old-generation
 * limit sat ~24 MB above a service's live heap, and the upload kept it starting full collections — 118 per
 * 3.2 GB uploaded in a lab of the upload pipeline, and the claims service's upload rounds ran at ~260 MiB/s
 * with a third of a core in GC threads. With the floor: 3 full collections, ~470 MiB/s, and no higher peak
 * RSS (the buffers are freed by young-generation collections, as before). docs/BENCHMARKS.md, 2026-11-27.
 */
export const SERVICE_NODE_FLAGS = ['--initial-old-space-size=128'] as const;

/**
 * The production build's command line before `main.js` (deploy/Dockerfile's CMDs): stack traces of the
 * bundle mapped back to the TypeScript sources (tsx does that itself in the workspace), then SERVICE_NODE_FLAGS.
 */
export const BUNDLE_NODE_FLAGS = ['--enable-source-maps', ...SERVICE_NODE_FLAGS] as const;

/**
 * Environment every service process runs with (deploy/Dockerfile's runtime stage, and the stack tests and
 * the benchmark start).
 *
 * `MALLOC_ARENA_MAX=2`: glibc gives each thread that allocates (V8's compiler and collector threads,
 * libuv's pool) an arena of its own, up to eight per core, and a freed chunk stays resident in its arena.
 * In the ten-minute mixed load the claims process's thread arenas grew from 17.6 to 25.1 MB with its live
 * heap flat (the leak figure's 12.49 MB per 10 minutes); with two arenas they held 2.5–4.4 MB, the
 * process's memory outside V8's heap was 26–28 MB instead of 45–53 and its line 0.49 MB per 10 minutes,
 * and the upload rounds ran as fast (docs/BENCHMARKS.md, 2026-11-27, third session).
 *
 * `MALLOC_MMAP_THRESHOLD_=65536`: a block of 64 KiB or more — a streamed body's chunks, which Node copies
 * out of each socket read into a buffer of their own — is mapped on its own and unmapped when freed.
 * glibc's default starts at 128 KiB and rises to the size of every larger block freed (up to 32 MB), after
 * which those chunks come from the arena and, freed between live ones, stay resident. In the ten-minute
 * mix the services' memory outside V8's heap was 13–16 MB lower (claims 25 MB instead of 38, evidence 17
 * instead of 33) and claims' line 2.31 instead of 7.28 MB per 10 minutes; 25 MiB upload rounds ran as
 * fast (419.6 and 445.8 against 433.3 and 436.4 MiB/s) and small requests map nothing more
 * (docs/BENCHMARKS.md, 2026-11-27, fourth session).
 *
 * glibc only: the Alpine image's musl allocator ignores both.
 */
export const SERVICE_ENVIRONMENT = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '65536' } as const;
