/**
 * What each area of the web pages downloads, read from the production build's Vite manifest
 * (web/dist/.vite/manifest.json; web/vite.config.ts): the entry and the area's lazy route modules
 * (web/src/routes.tsx) with every chunk they import statically.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

interface ManifestChunk {
  file: string;
  src?: string;
  name?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
}

type Manifest = Record<string, ManifestChunk>;

/** The route modules of each area (web/src/routes.tsx). */
export const AREA_MODULES = {
  portal: ['src/portal/PortalPage.tsx', 'src/portal/ReportPage.tsx'],
  workbench: ['src/workbench/WorkbenchHome.tsx'],
  examiner: ['src/examiner/ExaminerDesk.tsx'],
} as const;

export type Area = keyof typeof AREA_MODULES;

function readManifest(distDir: string): Manifest {
  return JSON.parse(readFileSync(path.join(distDir, '.vite', 'manifest.json'), 'utf8')) as Manifest;
}

/** The JavaScript files (relative to dist) that the given manifest keys load, static imports followed. */
function closure(manifest: Manifest, keys: readonly string[]): Set<string> {
  const files = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the web build's manifest`);
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  keys.forEach(visit);
  return files;
}

/**
 * The manifest key of a route module: its source path, or (when another module also imports it statically,
 * as ReportPage does PortalPage) the dynamic entry chunk named after it.
 */
function moduleKey(manifest: Manifest, module: string): string {
  if (manifest[module]) return module;
  const name = path.basename(module).replace(/\.tsx?$/, '');
  const key = Object.keys(manifest).find((candidate) => manifest[candidate].isDynamicEntry && manifest[candidate].name === name);
  if (!key) throw new Error(`${module} is not in the web build's manifest`);
  return key;
}

/** Every JavaScript file a page of the area can load: the entry and the area's route chunks. */
export function areaFiles(distDir: string, area: Area): Set<string> {
  const manifest = readManifest(distDir);
  const entry = Object.keys(manifest).filter((key) => manifest[key].isEntry);
  return closure(manifest, [...entry, ...AREA_MODULES[area].map((module) => moduleKey(manifest, module))]);
}

/** The files only the other areas load: what a page of `area` must never download. */
export function filesOutside(distDir: string, area: Area): Set<string> {
  const own = areaFiles(distDir, area);
  const others = (Object.keys(AREA_MODULES) as Area[]).filter((other) => other !== area);
  return new Set(others.flatMap((other) => [...areaFiles(distDir, other)]).filter((file) => !own.has(file)));
}

/** The area's JavaScript, gzipped (level 9, as a server would send it), in KB (1024 bytes). */
export function areaJsGzipKb(distDir: string, area: Area): number {
  let bytes = 0;
  for (const file of areaFiles(distDir, area)) bytes += gzipSync(readFileSync(path.join(distDir, file)), { level: 9 }).length;
  return Math.round((bytes / 1024) * 10) / 10;
}
