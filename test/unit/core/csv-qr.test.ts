// CSV quoting and injection guard; QR codes decode back to exactly the address (zbarimg as the independent reader).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { qrPngBuffer, qrSvg } from '../../../electron/core/addresses/qr';
import { csvCell, csvLine } from '../../../electron/core/export/csv';

describe('csv', () => {
  it('quotes separators, quotes and line breaks', () => {
    expect(csvLine(['a', 'b,c', 'say "hi"', 'two\nlines', null])).toBe('a,"b,c","say ""hi""","two\nlines",\r\n');
  });
  it('neutralises cells a spreadsheet would evaluate, but not plain numbers', () => {
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('-12.5')).toBe('-12.5');
    expect(csvCell('12.500000')).toBe('12.500000');
  });
});

describe('qr codes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'td-qr-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8',
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    'EQDKbjIcfM6ezt8KjKJJLshZJJSqX7XOA4ff-W72r5gqPrHF',
  ])('PNG decodes to exactly %s', async (address) => {
    const file = join(dir, 'code.png');
    writeFileSync(file, await qrPngBuffer(address));
    const decoded = execFileSync('zbarimg', ['--quiet', '--raw', '--nodbus', file], { encoding: 'utf8' });
    expect(decoded.trim()).toBe(address);
  });

  it('renders SVG markup with no script', async () => {
    const svg = await qrSvg('TJRabPrwbZy45sbavfcjinPJC18kjpRTv8');
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).not.toMatch(/<script/i);
  });
});
