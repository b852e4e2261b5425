import {readFileSync} from 'node:fs';
import {SHEETS_DOC, renderSheetsDoc} from '../../../scripts/gen-docs';

describe('docs/sheets.md', () => {
  it('is what scripts/gen-docs.ts generates from the schemas (run `npx tsx scripts/gen-docs.ts`)', () => {
    expect(readFileSync(SHEETS_DOC, 'utf8')).toBe(renderSheetsDoc());
  });
});
