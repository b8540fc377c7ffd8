import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { TARGETS } from '../bench/harness/targets';
import { areaFiles, areaJsGzipKb, filesOutside } from '../bench/harness/web-bundle';
import { ensureWebBuilt } from '../scripts/web-build';

/** A build whose manifest has the shape Vite writes: ReportPage imports PortalPage statically, so PortalPage is keyed by its chunk name. */
function build(): string {
  const dist = mkdtempSync(path.join(tmpdir(), 'web-bundle-'));
  mkdirSync(path.join(dist, '.vite'));
  mkdirSync(path.join(dist, 'assets'));
  const files: Record<string, string> = {
    'assets/index.js': 'r'.repeat(4000),
    'assets/shared.js': 'shared()',
    'assets/PortalPage.js': 'portal()',
    'assets/ReportPage.js': 'report()',
    'assets/WorkbenchHome.js': 'workbench()',
    'assets/workbench.js': 'workbenchShared()',
    'assets/ExaminerDesk.js': 'examiner()',
  };
  for (const [file, text] of Object.entries(files)) writeFileSync(path.join(dist, file), text);
  const manifest = {
    'index.html': { file: 'assets/index.js', name: 'index', isEntry: true },
    '_shared.js': { file: 'assets/shared.js', name: 'shared', imports: ['index.html'] },
    '_PortalPage-x.js': { file: 'assets/PortalPage.js', name: 'PortalPage', isDynamicEntry: true, imports: ['index.html', '_shared.js'] },
    'src/portal/ReportPage.tsx': { file: 'assets/ReportPage.js', name: 'ReportPage', isDynamicEntry: true, imports: ['_PortalPage-x.js'] },
    '_workbench.js': { file: 'assets/workbench.js', name: 'workbench', imports: ['index.html', '_shared.js'] },
    'src/workbench/WorkbenchHome.tsx': { file: 'assets/WorkbenchHome.js', isDynamicEntry: true, imports: ['_workbench.js'] },
    'src/examiner/ExaminerDesk.tsx': { file: 'assets/ExaminerDesk.js', isDynamicEntry: true, imports: ['_workbench.js'] },
  };
  writeFileSync(path.join(dist, '.vite', 'manifest.json'), JSON.stringify(manifest));
  return dist;
}

describe('what each area of the pages downloads (bench web.*)', () => {
  it("follows an area's route modules and their static imports, entry included", () => {
    const dist = build();
    expect([...areaFiles(dist, 'portal')].sort()).toEqual([
      'assets/PortalPage.js',
      'assets/ReportPage.js',
      'assets/index.js',
      'assets/shared.js',
    ]);
    expect([...filesOutside(dist, 'portal')].sort()).toEqual(['assets/ExaminerDesk.js', 'assets/WorkbenchHome.js', 'assets/workbench.js']);
    expect([...filesOutside(dist, 'examiner')].sort()).toEqual(['assets/PortalPage.js', 'assets/ReportPage.js', 'assets/WorkbenchHome.js']);
  });

  it("sums the area's files gzipped, in KB", () => {
    const dist = build();
    const expected = ['index.js', 'shared.js', 'PortalPage.js', 'ReportPage.js']
      .map((file) => gzipSync(readFileSync(path.join(dist, 'assets', file)), { level: 9 }).length)
      .reduce((sum, bytes) => sum + bytes, 0);
    expect(areaJsGzipKb(dist, 'portal')).toBe(Math.round((expected / 1024) * 10) / 10);
  });

  it('refuses a manifest that lacks an area (a renamed route module), rather than measuring less', () => {
    const dist = build();
    writeFileSync(path.join(dist, '.vite', 'manifest.json'), JSON.stringify({ 'index.html': { file: 'assets/index.js', isEntry: true } }));
    expect(() => areaJsGzipKb(dist, 'portal')).toThrow(/src\/portal\/PortalPage.tsx is not in the web build's manifest/);
  });

  it('measures the real build: what a portal page downloads is within the bench target (web.portal_js_gzip_kb)', () => {
    ensureWebBuilt();
    const target = TARGETS.find((candidate) => candidate.key === 'web.portal_js_gzip_kb')!;
    expect(areaJsGzipKb(path.join(__dirname, '../web/dist'), 'portal')).toBeLessThanOrEqual(target.threshold!);
  });
});
