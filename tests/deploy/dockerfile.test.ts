/**
 * deploy/Dockerfile, checked statically (no Docker engine needed): the images run built JavaScript with
 * production dependencies only, on a supported Node.js LTS pinned by digest, as a non-root user. Building
 * the images and looking inside them is the manual check in deploy/README.md ("Images").
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BUNDLE_NODE_FLAGS, SERVICE_ENVIRONMENT, SERVICE_NODE_FLAGS } from '@platform/runtime';
import { productionProcesses } from '../../scripts/build-production';

const root = path.join(__dirname, '../..');
const dockerfile = readFileSync(path.join(root, 'deploy/Dockerfile'), 'utf8');

interface Stage {
  name: string;
  from: string;
  instructions: string[];
}

/** Instructions (continuation lines joined, comments dropped), grouped by stage. */
function parse(text: string): { args: Record<string, string>; stages: Stage[] } {
  const lines = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  const args: Record<string, string> = {};
  const stages: Stage[] = [];
  for (const line of lines) {
    const from = /^FROM\s+(\S+)\s+AS\s+(\S+)$/i.exec(line);
    if (from) stages.push({ from: from[1], name: from[2], instructions: [] });
    else if (stages.length === 0 && /^ARG\s+(\w+)=(\S+)$/.test(line)) {
      const [, name, value] = /^ARG\s+(\w+)=(\S+)$/.exec(line)!;
      args[name] = value;
    } else stages.at(-1)?.instructions.push(line);
  }
  return { args, stages };
}

const { args, stages } = parse(dockerfile);
const stage = (name: string) => stages.find((candidate) => candidate.name === name)!;
const processNames = Object.keys(productionProcesses);

describe('deploy/Dockerfile', () => {
  it('builds from a Node.js LTS image pinned by digest that the engines field allows', () => {
    const image = /^node:(\d+)\.\d+\.\d+-alpine@sha256:[0-9a-f]{64}$/.exec(args.NODE_IMAGE);
    expect(image).not.toBeNull();
    const major = Number(image![1]);
    expect(major % 2).toBe(0); // even majors are the LTS lines
    expect(major).toBeGreaterThanOrEqual(22); // 20 reached end of life in April 2026
    const engines: string = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).engines.node;
    expect(engines).toMatch(/(^|\|\|)\s*>=\s*22(\s|$)/);
    for (const { from } of stages) expect(['${NODE_IMAGE}', ...stages.map((s) => s.name)]).toContain(from);
  });

  it('installs from the lockfile and builds JavaScript with scripts/build-production.ts in the build stage', () => {
    const build = stage('build').instructions.join('\n');
    expect(build).toMatch(/pnpm install --offline --frozen-lockfile/);
    expect(build).toMatch(/scripts\/build-production\.ts --out \/dist/);
  });

  it('has a runtime stage with no package manager, no TypeScript and a numeric non-root user', () => {
    const runtime = stage('runtime');
    expect(runtime.from).toBe('${NODE_IMAGE}');
    const text = runtime.instructions.join('\n');
    expect(text).not.toMatch(/\b(pnpm|npx|npm install|yarn|tsx)\b/);
    expect(text).not.toMatch(/COPY --from/);
    const user = runtime.instructions.filter((line) => line.startsWith('USER'));
    expect(user).toHaveLength(1);
    const [uid, gid] = user[0].split(/\s+/)[1].split(':').map(Number);
    expect(uid).toBeGreaterThan(0);
    expect(gid).toBeGreaterThan(0);
  });

  it('sets the service environment in the runtime stage, which every target inherits', () => {
    const env = stage('runtime')
      .instructions.filter((line) => line.startsWith('ENV'))
      .join(' ');
    for (const [name, value] of Object.entries(SERVICE_ENVIRONMENT)) expect(env).toMatch(new RegExp(`(^|\\s)${name}=${value}(\\s|$)`));
  });

  it.each(processNames)(
    'has a %s target that adds only its built directory to the runtime and runs main.js with the service flags',
    (name) => {
      const target = stage(name);
      expect(target.from).toBe('runtime');
      expect(target.instructions.filter((line) => /^(RUN|USER)\b/.test(line))).toEqual([]);
      expect(target.instructions.filter((line) => line.startsWith('COPY'))).toEqual([`COPY --from=build /dist/${name} /app`]);
      const cmd = JSON.parse(
        target.instructions
          .find((line) => line.startsWith('CMD'))!
          .slice(3)
          .trim(),
      );
      // what the stack tests and the benchmark run a production build with (@platform/testing managedProcess)
      expect(cmd).toEqual(['node', ...BUNDLE_NODE_FLAGS, 'main.js']);
      expect(cmd).toEqual(expect.arrayContaining([...SERVICE_NODE_FLAGS]));
    },
  );

  it('has exactly the targets the build script builds', () => {
    expect(
      stages
        .map((s) => s.name)
        .filter((name) => !['build', 'runtime'].includes(name))
        .sort(),
    ).toEqual([...processNames].sort());
  });
});
