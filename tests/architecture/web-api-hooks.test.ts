import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The web pages read and change the API through per-feature hooks modules (`<feature>-api.ts`, e.g.
 * web/src/workbench/claim/claim-api.ts), each with one query-key factory used for reads and for invalidation
 * (docs/ARCHITECTURE.md, "Web"). A page or section that writes a query key, or reaches the query client itself,
 * brings back the ad-hoc keys this rule removed.
 */
const WEB_SRC = path.join(__dirname, '../../web/src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$|\.d\.ts$/.test(entry.name) ? [file] : [];
  });
}

const relative = (file: string) => path.relative(WEB_SRC, file).split(path.sep).join('/');
const isHooksModule = (file: string) => /-api\.ts$/.test(file) || file === 'api/queries.ts';
const files = sourceFiles(WEB_SRC).map((file) => ({ file: relative(file), text: readFileSync(file, 'utf8') }));

/** What only a hooks module may write: a query key, or the query client (invalidation goes through useInvalidate). */
const QUERY_PLUMBING = /\bqueryKey\b|\buseQueryClient\b|\binvalidateQueries\b/;
/** A call of the generated client (reads and changes alike): only the hooks modules make them. */
const CLIENT_CALL = /\bapi\.(GET|POST|PUT|PATCH|DELETE)\b/;

describe('web API hooks', () => {
  it('finds the web sources and their hooks modules', () => {
    const hooks = files.filter(({ file }) => isHooksModule(file)).map(({ file }) => file);
    expect(hooks).toEqual(expect.arrayContaining(['workbench/claim/claim-api.ts', 'portal/portal-api.ts', 'examiner/evidence-api.ts']));
  });

  it('no page or section writes a query key or uses the query client: only the hooks modules do', () => {
    const offenders = files.filter(({ file, text }) => !isHooksModule(file) && QUERY_PLUMBING.test(text)).map(({ file }) => file);
    expect(offenders).toEqual([]);
  });

  it('no page or section calls the generated client: its reads and changes are the hooks modules’ (`claimChanges`, `portalChanges`, …)', () => {
    const offenders = files.filter(({ file, text }) => !isHooksModule(file) && CLIENT_CALL.test(text)).map(({ file }) => file);
    expect(offenders).toEqual([]);
  });

  it('the portal imports nothing of the workbench or the examiner desk (its bundle stays small)', () => {
    const offenders = files
      .filter(({ file }) => file.startsWith('portal/'))
      .filter(({ text }) => /from '\.\.\/(workbench|examiner)\//.test(text))
      .map(({ file }) => file);
    expect(offenders).toEqual([]);
  });
});
