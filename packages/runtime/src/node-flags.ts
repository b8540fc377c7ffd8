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
