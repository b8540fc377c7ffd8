import { readFileSync } from 'node:fs';
import path from 'node:path';
import { renderConfigurationDoc } from '../scripts/config-docs';

describe('docs/CONFIGURATION.md', () => {
  it('documents every variable the processes read, with its default (regenerate with scripts/config-docs.ts)', () => {
    const committed = readFileSync(path.join(__dirname, '../docs/CONFIGURATION.md'), 'utf8');
    expect(committed).toBe(renderConfigurationDoc());
  });
});
