/*
 * Preloaded into every platform process the benchmark starts (NODE_OPTIONS=--require …): SIGUSR2 runs a
 * full garbage collection. The mixed scenario reads each process's RSS right after one, before and after
 * its window, so that memory still held after the load (a leak) is told apart from where V8's heap
 * sizing happens to stand (under load the committed heap swings by 100 MB with the live data flat).
 */
'use strict';
const v8 = require('node:v8');
const vm = require('node:vm');

v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc');
process.on('SIGUSR2', () => collectGarbage());
