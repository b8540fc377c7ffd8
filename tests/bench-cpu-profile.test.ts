import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { readCpuProfile, type CpuProfile } from '../bench/harness/cpu-profile';

describe('readCpuProfile (bench/harness/cpu-profile.ts)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'cpu-profile-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A frame at the start of `functionName`'s definition in `file` (0-based line and column, as V8 gives them). */
  function frameAt(file: string, functionName: string) {
    const lines = readFileSync(file, 'utf8').split('\n');
    const lineNumber = lines.findIndex((line) => line.includes(`function ${functionName}(`));
    if (lineNumber < 0) throw new Error(`${functionName} is not in ${file}`);
    return { functionName, url: pathToFileURL(file).href, lineNumber, columnNumber: lines[lineNumber].indexOf('function') };
  }

  function profileOf(frames: ReturnType<typeof frameAt>[]): string {
    const profile: CpuProfile = {
      nodes: frames.map((callFrame, index) => ({ id: index + 1, callFrame, hitCount: 1 })),
      startTime: 0,
      endTime: 1000,
      samples: frames.map((_, index) => index + 1),
    };
    const file = path.join(dir, `profile-${Math.random().toString(36).slice(2)}.cpuprofile`);
    writeFileSync(file, JSON.stringify(profile));
    return file;
  }

  it('names the source file and line a bundled function came from, through the map beside the bundle', async () => {
    const src = path.join(dir, 'src');
    mkdirSync(src, { recursive: true });
    writeFileSync(
      path.join(src, 'headers.ts'),
      `export function setSecurityHeaders(names: string[]): number {\n  return names.length;\n}\n`,
    );
    writeFileSync(
      path.join(src, 'main.ts'),
      `import { setSecurityHeaders } from './headers';\n\n\nexport function handleRequest(): number {\n  return setSecurityHeaders(['a', 'b']);\n}\n`,
    );
    const bundle = path.join(dir, 'dist/gateway/main.js');
    await build({
      entryPoints: [path.join(src, 'main.ts')],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      outfile: bundle,
      sourcemap: 'linked',
    });

    const profile = readCpuProfile(profileOf([frameAt(bundle, 'setSecurityHeaders'), frameAt(bundle, 'handleRequest')]));
    expect(profile.nodes.map((node) => [node.callFrame.functionName, node.callFrame.url, node.callFrame.lineNumber])).toEqual([
      ['setSecurityHeaders', path.join(src, 'headers.ts'), 0],
      ['handleRequest', path.join(src, 'main.ts'), 3],
    ]);
  });

  it('leaves a frame without a map beside its file as V8 named it', () => {
    const plain = path.join(dir, 'plain.js');
    writeFileSync(plain, 'function work() {\n  return 1;\n}\n');
    const frame = frameAt(plain, 'work');
    expect(readCpuProfile(profileOf([frame])).nodes[0].callFrame).toEqual(frame);
  });
});
