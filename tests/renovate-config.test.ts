/** renovate.json: keeps the Node.js digest and the dependencies current, within the pins Node 20 needs. */
import { readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

type Rule = {
  matchPackageNames?: string[];
  matchDatasources?: string[];
  matchUpdateTypes?: string[];
  allowedVersions?: string;
  pinDigests?: boolean;
  enabled?: boolean;
};
const config = JSON.parse(read('renovate.json')) as { extends: string[]; packageRules: Rule[] };
const ruleFor = (name: string, test: (rule: Rule) => boolean = () => true) =>
  config.packageRules.find((rule) => rule.matchPackageNames?.includes(name) && test(rule));
/** Renovate's `/regex/` allowedVersions form. */
const allows = (rule: Rule, version: string) => new RegExp(rule.allowedVersions!.slice(1, -1)).test(version);

describe('renovate.json', () => {
  it('pins the Node.js image by digest and moves it within the LTS line deploy/Dockerfile runs', () => {
    const [, tag, digest] = /^ARG NODE_IMAGE=node:([^@\s]+)@(sha256:[0-9a-f]{64})$/m.exec(read('deploy/Dockerfile'))!;
    expect(digest).toBeDefined();
    const rule = ruleFor('node', (candidate) => candidate.matchDatasources?.includes('docker') === true)!;
    expect(rule.pinDigests).toBe(true);
    expect(allows(rule, tag)).toBe(true);
    expect(
      allows(
        rule,
        tag.replace(/^\d+/, (major) => String(Number(major) + 1)),
      ),
    ).toBe(false);
  });

  it('holds the majors that need Node 22 (ENGINEERING.md), and @types/node on the Node 20 line', () => {
    const manifests = [read('package.json'), ...['gateway', 'packages/testing', 'web'].map((dir) => read(`${dir}/package.json`))].join(
      '\n',
    );
    for (const name of ['testcontainers', 'http-proxy-middleware', 'typescript']) {
      expect(manifests).toContain(`"${name}"`);
      expect(ruleFor(name, (rule) => rule.matchUpdateTypes?.includes('major') === true)?.enabled).toBe(false);
    }
    const types = ruleFor('@types/node')!;
    expect(types.allowedVersions).toBe('<21');
    expect(JSON.parse(read('package.json')).devDependencies['@types/node']).toMatch(/^\^20\./);
  });
});
