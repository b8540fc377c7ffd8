import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** A node of a V8 CPU profile (the `--cpu-prof` format): one frame of a call tree, with its callees. */
export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber?: number };
  hitCount?: number;
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
}

/**
 * A profile whose frames in a bundle (a file with its source map beside it, as scripts/build-production.ts
 * writes main.js and main.js.map) name the source file and line the function was bundled from, so a
 * profile of the production build reads like one of the TypeScript (the bundle keeps function names).
 */
export function readCpuProfile(file: string): CpuProfile {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const pathOf = (url: string) => (url.startsWith('file://') ? fileURLToPath(url) : url);
  const maps = new Map<string, SourceMap | undefined>();
  const mapOf = (url: string): SourceMap | undefined => {
    if (!maps.has(url)) {
      const script = pathOf(url);
      const mapFile = `${script}.map`;
      maps.set(url, path.isAbsolute(script) && existsSync(mapFile) ? new SourceMap(JSON.parse(readFileSync(mapFile, 'utf8'))) : undefined);
    }
    return maps.get(url);
  };
  for (const node of profile.nodes) {
    const { url, lineNumber, columnNumber } = node.callFrame;
    const map = url && lineNumber >= 0 ? mapOf(url) : undefined;
    const entry = map?.findEntry(lineNumber, columnNumber ?? 0) as { originalSource?: string; originalLine?: number } | undefined;
    if (!entry?.originalSource) continue;
    const original = path.resolve(path.dirname(pathOf(url)), pathOf(entry.originalSource));
    node.callFrame = { ...node.callFrame, url: original, lineNumber: entry.originalLine ?? lineNumber };
  }
  return profile;
}

/** Where a frame comes from: a package in node_modules, the workspace path, a production bundle, or node itself. */
function origin(url: string): string {
  const pkg = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  // the benchmark's production build (scripts/build-production.ts): all of a process's workspace code in one file
  const bundle = /\/dist\/([^/]+)\/main\.js$/.exec(url);
  if (bundle) return `${bundle[1]} bundle (workspace code)`;
  const workspace = /\/work\/main\/([^/]+\/[^/]+)/.exec(url);
  if (workspace) return workspace[1];
  return url.startsWith('node:') ? 'node' : url ? url : '(native/gc/idle)';
}

/** Self time by function and by origin (package or workspace folder), as text, top `limit`. */
export function summariseCpuProfile(file: string, limit = 25): string {
  const profile = readCpuProfile(file);
  const totalSamples = profile.samples.length || 1;
  const totalMs = (profile.endTime - profile.startTime) / 1000;
  const byFunction = new Map<string, number>();
  const byOrigin = new Map<string, number>();
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    if (!hits) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const name = `${functionName || '(anonymous)'} ${url.replace(/^.*\/work\/main\//, '').replace(/^file:\/\//, '')}:${lineNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + hits);
    byOrigin.set(origin(url), (byOrigin.get(origin(url)) ?? 0) + hits);
  }
  const top = (map: Map<string, number>) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, limit)
      .map(([name, hits]) => `${((100 * hits) / totalSamples).toFixed(1).padStart(5)}%  ${name}`)
      .join('\n');
  return `${file}\n${totalSamples} samples over ${(totalMs / 1000).toFixed(1)} s\n\nself time by origin:\n${top(byOrigin)}\n\nself time by function:\n${top(byFunction)}\n`;
}
