// The sandbox's getDeposits pages read from where the previous page ended (ledger.ts depositsPage) are exactly the
// pages OFFSET gives: in order and out of order, with the currency filter, unlisted deposits and another page size,
// and after new deposits arrive (which shift every page by the new ones).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../../electron/sandbox';
import { depositsPage } from '../../../electron/sandbox/ledger';
import { openDatabase, type Db } from '../../../electron/sandbox/store';
import { creditLedgerDeposits } from '../../support/ledger-deposits';

let dir: string;
let db: Db;
let merchantId: string;

/** Credits `count` deposits, two of three TRX USDT, the others ETH. */
function credit(count: number): void {
  creditLedgerDeposits(db, merchantId, count);
}

/** What OFFSET answers: the reference each page is compared with. */
function offsetPage(currency: string | undefined, page: number, limit: number, unlisted: readonly string[]): string[] {
  const rows = db
    .prepare(
      `SELECT api_order FROM deposits WHERE merchant_id = ?${currency === undefined ? '' : ' AND currency = ?'} ` +
        'AND api_order NOT IN (SELECT value FROM json_each(?)) ORDER BY seq DESC LIMIT ? OFFSET ?',
    )
    .all(...(currency === undefined ? [merchantId] : [merchantId, currency]), JSON.stringify(unlisted), limit, (page - 1) * limit) as Array<{ api_order: string }>;
  return rows.map((row) => row.api_order);
}

function expectSamePages(currency: string | undefined, pages: readonly number[], limit: number, unlisted: readonly string[] = []): number {
  let rows = 0;
  for (const page of pages) {
    const served = depositsPage(db, merchantId, currency, page, limit, unlisted).map((record) => record.apiOrder);
    expect(served, `page ${page} of ${limit}${currency === undefined ? '' : `, ${currency}`}`).toEqual(offsetPage(currency, page, limit, unlisted));
    rows += served.length;
  }
  return rows;
}

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, index) => from + index);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'td-deposit-pages-'));
  const sandbox = await startSandbox({ host: '127.0.0.1', port: 0, dataDir: dir });
  merchantId = sandbox.credentials.merchantId;
  await sandbox.close();
  db = openDatabase(dir);
  credit(1_050);
});

afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('getDeposits pages read from the previous page end', () => {
  it('walk every page in order exactly as OFFSET does, and again', () => {
    expect(expectSamePages(undefined, range(1, 12), 100)).toBe(1_050);
    expect(expectSamePages(undefined, range(1, 12), 100)).toBe(1_050);
  });

  it('serve a page asked out of order, another page size, the currency filter and unlisted deposits as OFFSET does', () => {
    expectSamePages(undefined, [7, 3, 11, 2, 8], 100);
    expect(expectSamePages(undefined, range(1, 30), 37)).toBe(1_050);
    expect(expectSamePages('eth', range(1, 5), 100)).toBe(350);
    const hidden = depositsPage(db, merchantId, undefined, 4, 100)
      .slice(10, 13)
      .map((record) => record.apiOrder);
    expect(expectSamePages(undefined, range(1, 12), 100, hidden)).toBe(1_047);
    expect(expectSamePages('trx.usdt', range(1, 8), 100, hidden)).toBe(700 - hidden.filter((apiOrder) => offsetPage('trx.usdt', 1, 1_000, []).includes(apiOrder)).length);
  });

  it('after new deposits arrive, every page shifts by them as with OFFSET', () => {
    expectSamePages(undefined, range(1, 5), 100); // ends known for pages 1 to 5
    credit(3);
    // Pages 4 and 2 first: the ends known from before the new deposits are not where these pages now start.
    expectSamePages(undefined, [4, 2], 100);
    expect(expectSamePages(undefined, range(1, 12), 100)).toBe(1_053);
    expectSamePages('eth', range(1, 5), 100);
  });
});
