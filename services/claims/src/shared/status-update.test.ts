import { statusUpdateJsonSql, statusUpdateSchema } from './status-update';

/** The keys of the outermost `json_build_object(k1, v1, k2, v2, …)` of a SQL expression, in order. */
function builtKeys(sql: string): string[] {
  const open = sql.indexOf('json_build_object(') + 'json_build_object('.length;
  const args: string[] = [];
  let depth = 0;
  let quoted = false;
  let current = '';
  for (const char of sql.slice(open)) {
    if (char === "'") quoted = !quoted;
    if (!quoted && char === '(') depth += 1;
    if (!quoted && char === ')' && depth-- === 0) break;
    if (!quoted && char === ',' && depth === 0) {
      args.push(current.trim());
      current = '';
    } else current += char;
  }
  args.push(current.trim());
  return args.filter((_, index) => index % 2 === 0).map((key) => /^'([^']*)'$/.exec(key)?.[1] ?? `not a key: ${key}`);
}

describe('the StatusUpdate built as JSON by PostgreSQL', () => {
  it("has exactly the schema's properties, no more and no fewer", () => {
    const keys = builtKeys(statusUpdateJsonSql('s'));
    expect(new Set(keys).size).toBe(keys.length);
    expect([...keys].sort()).toEqual(Object.keys(statusUpdateSchema.properties).sort());
    expect([...keys].sort()).toEqual([...statusUpdateSchema.required].sort());
  });

  it('reads the keys of the outermost object only (a nested object or a quoted comma is not a key)', () => {
    expect(builtKeys("json_build_object('a', x.a, 'b', jsonb_build_object('c', x.c, 'd', ','), 'e', f(x, y))")).toEqual(['a', 'b', 'e']);
  });
});
