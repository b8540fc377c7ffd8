/*
 * Loaded with NODE_OPTIONS=--require into a service process started only to learn which SQL one request
 * issues (the bare-SQL baseline replays exactly those statements). Every query node-postgres sends is
 * appended, one JSON line each, to the file named by BENCH_SQL_CAPTURE. Never loaded into a process
 * that is being measured.
 */
'use strict';
const fs = require('node:fs');
const Module = require('node:module');

const file = process.env.BENCH_SQL_CAPTURE;
if (file) {
  const connections = new WeakMap();
  let nextConnection = 1;
  const originalRequire = Module.prototype.require;
  Module.prototype.require = function patchedRequire(id) {
    const exported = originalRequire.apply(this, arguments);
    if (id === 'pg' && exported && exported.Client && !exported.Client.prototype.__benchCaptured) {
      const query = exported.Client.prototype.query;
      exported.Client.prototype.query = function capturedQuery(config, values) {
        if (!connections.has(this)) connections.set(this, nextConnection++);
        const text = typeof config === 'string' ? config : config && config.text;
        const params = Array.isArray(values) ? values : config && config.values;
        if (typeof text === 'string') {
          const line = JSON.stringify({ pid: process.pid, connection: connections.get(this), text, values: params });
          fs.appendFileSync(file, line + '\n');
        }
        return query.apply(this, arguments);
      };
      exported.Client.prototype.__benchCaptured = true;
    }
    return exported;
  };
}
