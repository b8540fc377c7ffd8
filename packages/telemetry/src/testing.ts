import { createRequire } from 'node:module';
import path from 'node:path';
import type { Telemetry } from './sdk';

export { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-node';

/**
 * Jest loads modules through its own registry, past the require hook by which the instrumentations patch
 * express, pg and amqplib as they are loaded; this applies the same patches to the copies jest loaded, resolved
 * from `packages` (directories whose dependencies they are), and to the core modules (http) jest hands out. Call it before any app or connection is made: express copies its methods into each app.
 */
export function instrumentJestModules(telemetry: Telemetry, packages: string[], load: (id: string) => unknown): void {
  const resolve = (name: string) => {
    for (const dir of packages) {
      try {
        return createRequire(path.join(dir, 'package.json')).resolve(name);
      } catch {
        // not a dependency of this one
      }
    }
    return undefined;
  };
  for (const instrumentation of telemetry.instrumentations) {
    for (const definition of instrumentation.getModuleDefinitions()) {
      const main = resolve(definition.name);
      if (!main) continue;
      if (!path.isAbsolute(main)) {
        definition.patch?.(load(main), process.versions.node); // a core module
        continue;
      }
      const version = (load(path.join(moduleRoot(main, definition.name), 'package.json')) as { version: string }).version;
      definition.patch?.(load(main), version);
      for (const file of definition.files) {
        const loaded = loadIfPresent(load, resolve(file.name));
        if (loaded) file.patch(loaded, version);
      }
    }
  }
}

function moduleRoot(resolvedMain: string, name: string): string {
  const marker = `${path.sep}node_modules${path.sep}${name}${path.sep}`;
  return resolvedMain.slice(0, resolvedMain.lastIndexOf(marker) + marker.length - 1);
}

/** A module file that cannot load (pg's native client without pg-native) is one nothing uses. */
function loadIfPresent(load: (id: string) => unknown, file: string | undefined): unknown {
  if (!file) return undefined;
  try {
    return load(file);
  } catch {
    return undefined;
  }
}
