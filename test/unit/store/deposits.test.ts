// Deposits: insert-or-touch by (profile, apiOrder) that never changes amounts and flags conflicts, the batch form,
// keyset pages checked against a reference over 20,000 rows, txid lookup, substring search, and the query plans.
import { beforeAll, describe, expect, it } from 'vitest';
import { writeTransaction, type StoreDatabase } from '../../../electron/core/store/database';
import { buildDepositQuery, countDeposits, countStagedDeposits, depositSearchBacklog, depositSearchMode, findDepositByTxid, getDepositByApiOrder, indexDepositSearchBacklog, insertOrTouchDeposit, insertOrTouchDeposits, listDeposits, moveStagedDeposits, SEARCH_CANDIDATE_CAP, SEARCH_MATCH_LIST_CAP, stageDeposits, trigramQuery, type Deposit, type DepositObservation, type DepositQuery, type DepositRecord } from '../../../electron/core/deposits/deposits-table';
import { StoreError } from '../../../electron/core/store/errors';
import { createProfile } from '../../../electron/core/profiles/profiles-table';
import { depositRecord, PROFILE, seededDatabase, useTempDir } from './helpers';

const temp = useTempDir();

describe('insertOrTouchDeposit', () => {
  let db: StoreDatabase;
  beforeAll(() => {
    db = seededDatabase(temp);
  });

  it('stores a new deposit with every field, the raw record whole (unknown fields too), source and times', () => {
    const record = { ...depositRecord(1), memoFromPlatform: 'kept', nested: { b: 2, a: 1 } };
    const result = insertOrTouchDeposit(db, PROFILE, record, 'callback', 5_000);
    expect(result).toEqual({ id: result.id, isNew: true, conflict: false, conflictFields: [] });
    const stored = getDepositByApiOrder(db, PROFILE, record.apiOrder);
    expect(stored).toMatchObject({
      ...depositRecord(1),
      profile: PROFILE,
      source: 'callback',
      firstSeenAt: 5_000,
      lastSeenAt: 5_000,
    });
    expect(stored?.raw).toEqual(record);
  });

  it('only moves last_seen_at forward when the apiOrder is seen again, and keeps the first source', () => {
    const record = depositRecord(2);
    insertOrTouchDeposit(db, PROFILE, record, 'query', 1_000);
    const again = insertOrTouchDeposit(db, PROFILE, record, 'callback', 3_000);
    expect(again).toMatchObject({ isNew: false, conflict: false });
    insertOrTouchDeposit(db, PROFILE, record, 'query', 2_000);
    expect(getDepositByApiOrder(db, PROFILE, record.apiOrder)).toMatchObject({ firstSeenAt: 1_000, lastSeenAt: 3_000, source: 'query' });
  });

  it('compares amounts as decimals: "12.50" re-observed as "12.5" is the same deposit, no conflict', () => {
    const record = depositRecord(3, { amount: '12.50', fee: '0.10' });
    insertOrTouchDeposit(db, PROFILE, record, 'query', 1_000);
    const again = insertOrTouchDeposit(db, PROFILE, { ...record, amount: '12.5', fee: '0.1' }, 'callback', 2_000);
    expect(again).toMatchObject({ isNew: false, conflict: false, conflictFields: [] });
    expect(getDepositByApiOrder(db, PROFILE, record.apiOrder)?.amount).toBe('12.50');
  });

  it('never changes a stored amount: a differing re-observation keeps the first and reports the fields', () => {
    const record = depositRecord(4, { amount: '100' });
    insertOrTouchDeposit(db, PROFILE, record, 'callback', 1_000);
    const changed = { ...record, amount: '1000', txid: 'ffff', extra: 'new field' };
    const again = insertOrTouchDeposit(db, PROFILE, changed, 'query', 2_000);
    expect(again).toMatchObject({ isNew: false, conflict: true, conflictFields: ['amount', 'extra', 'txid'] });
    const stored = getDepositByApiOrder(db, PROFILE, record.apiOrder);
    expect(stored).toMatchObject({ amount: '100', txid: record.txid, lastSeenAt: 2_000 });
    expect(stored?.raw).toEqual(record);
  });

  it('keeps one row per (profile, apiOrder): another profile may reuse an apiOrder', () => {
    createProfile(db, { name: 'second', baseUrl: 'https://other.example', merchantId: 'M-2' });
    const record = depositRecord(5);
    expect(insertOrTouchDeposit(db, PROFILE, record, 'query', 1).isNew).toBe(true);
    expect(insertOrTouchDeposit(db, 'second', record, 'query', 1).isNew).toBe(true);
    expect(insertOrTouchDeposit(db, 'second', record, 'query', 2).isNew).toBe(false);
    expect(findDepositByTxid(db, 'second', record.txid)).toHaveLength(1);
  });

  it('refuses amounts that are not decimal strings, and records with missing fields', () => {
    for (const amount of ['1e5', '-3', '', '1,5']) {
      expect(() => insertOrTouchDeposit(db, PROFILE, depositRecord(6, { amount }), 'query', 1)).toThrow(StoreError);
    }
    expect(() => insertOrTouchDeposit(db, PROFILE, { ...depositRecord(6), amount: 5 } as unknown as DepositRecord, 'query', 1)).toThrow(/must be a string/);
    expect(() => insertOrTouchDeposit(db, PROFILE, depositRecord(6, { apiOrder: '' }), 'query', 1)).toThrow(/empty apiOrder/);
    expect(getDepositByApiOrder(db, PROFILE, depositRecord(6).apiOrder)).toBeUndefined();
  });

  it('finds deposits by txid, ignoring case and surrounding space', () => {
    const record = depositRecord(7, { txid: '0xABCDEF0123456789abcdef0123456789abcdef0123456789abcdef0123456789' });
    insertOrTouchDeposit(db, PROFILE, record, 'query', 1);
    insertOrTouchDeposit(db, PROFILE, { ...record, apiOrder: 'second-transfer-same-tx' }, 'query', 1);
    const found = findDepositByTxid(db, PROFILE, ` ${record.txid.toLowerCase()} `);
    expect(found.map((deposit) => deposit.apiOrder)).toEqual([record.apiOrder, 'second-transfer-same-tx']);
    expect(findDepositByTxid(db, PROFILE, 'nope')).toEqual([]);
  });
});

describe('insertOrTouchDeposits (batch)', () => {
  let db: StoreDatabase;
  beforeAll(() => {
    db = seededDatabase(temp);
  });

  const observe = (record: DepositRecord, observedAt = 1_000) => ({ record, source: 'query' as const, observedAt });
  const indexed = (fragment: string): number[] =>
    db.prepare('SELECT rowid FROM deposits_search WHERE deposits_search MATCH ? ORDER BY rowid').pluck().all(trigramQuery(fragment)) as number[];

  it('inserts, touches and reports conflicts like the single form; searches find the new rows before and after indexing', () => {
    insertOrTouchDeposit(db, PROFILE, depositRecord(1), 'callback', 500);
    const summary = insertOrTouchDeposits(db, PROFILE, [
      observe(depositRecord(1)),
      observe(depositRecord(2, { fromAddress: 'TBatchSenderUnique42' })),
      observe(depositRecord(3)),
      observe(depositRecord(3, { amount: '999' })),
    ]);
    expect(summary).toEqual({ inserted: 2, touched: 2, conflicts: [{ apiOrder: depositRecord(3).apiOrder, fields: ['amount'] }] });
    const search = () => listDeposits(db, { profile: PROFILE, search: 'batchsenderunique', limit: 10 }).rows.map((d) => d.apiOrder);
    // Not indexed yet: the backlog is tested row by row.
    expect(indexed('BatchSenderUnique')).toEqual([]);
    expect(depositSearchBacklog(db)).toBe(3);
    expect(search()).toEqual([depositRecord(2).apiOrder]);
    expect(indexDepositSearchBacklog(db)).toBe(3);
    expect(depositSearchBacklog(db)).toBe(0);
    expect(indexed('BatchSenderUnique')).toEqual([getDepositByApiOrder(db, PROFILE, depositRecord(2).apiOrder)?.id]);
    expect(search()).toEqual([depositRecord(2).apiOrder]);
    expect(indexDepositSearchBacklog(db)).toBe(0);
    db.exec("INSERT INTO deposits_search (deposits_search) VALUES ('integrity-check')");
  });

  it('runs as a savepoint inside a transaction the caller opened, and rolls back with it', () => {
    const before = countDeposits(db, PROFILE);
    expect(() =>
      writeTransaction(db, () => {
        insertOrTouchDeposits(db, PROFILE, [observe(depositRecord(20)), observe(depositRecord(21))]);
        expect(countDeposits(db, PROFILE)).toBe(before + 2);
        throw new Error('caller gives up');
      }),
    ).toThrow('caller gives up');
    expect(countDeposits(db, PROFILE)).toBe(before);
  });

  it('rolls the whole batch back when one record is bad', () => {
    const before = countDeposits(db, PROFILE);
    expect(() => insertOrTouchDeposits(db, PROFILE, [observe(depositRecord(10)), observe(depositRecord(11, { amount: 'bad' }))])).toThrow(StoreError);
    expect(countDeposits(db, PROFILE)).toBe(before);
  });

  it('indexes the backlog a given number of rows at a time, oldest first', () => {
    insertOrTouchDeposits(db, PROFILE, [30, 31, 32, 33, 34].map((n) => observe(depositRecord(n, { fromAddress: `TLimitSender${n}x` }))));
    expect(depositSearchBacklog(db)).toBe(5);
    expect(indexDepositSearchBacklog(db, 2)).toBe(2);
    expect(indexed('LimitSender30x').length + indexed('LimitSender31x').length).toBe(2);
    expect(indexed('LimitSender32x')).toEqual([]);
    expect(depositSearchBacklog(db)).toBe(3);
    expect(indexDepositSearchBacklog(db)).toBe(3);
    expect(indexed('LimitSender34x')).toHaveLength(1);
    expect(() => indexDepositSearchBacklog(db, 0)).toThrow(StoreError);
  });
});

describe('staged deposits (a walk\'s verified pages)', () => {
  let db: StoreDatabase;
  beforeAll(() => {
    db = seededDatabase(temp);
  });

  it('keeps pages as staged, checks their records first, and moves them in order with the time they were staged', () => {
    stageDeposits(db, PROFILE, [depositRecord(1), depositRecord(2)], 'query', 5_000);
    stageDeposits(db, PROFILE, [depositRecord(2, { amount: '7' }), depositRecord(3)], 'query', 6_000);
    expect(() => stageDeposits(db, PROFILE, [depositRecord(4), depositRecord(5, { fee: '-1' })], 'query', 7_000)).toThrow(StoreError);
    stageDeposits(db, PROFILE, [], 'query', 8_000);
    expect(countStagedDeposits(db)).toBe(4);
    expect(countDeposits(db, PROFILE)).toBe(0);

    expect(moveStagedDeposits(db)).toEqual([
      { profile: PROFILE, source: 'query', inserted: 3, touched: 1, conflicts: [{ apiOrder: depositRecord(2).apiOrder, fields: ['amount'] }] },
    ]);
    expect(countStagedDeposits(db)).toBe(0);
    expect(getDepositByApiOrder(db, PROFILE, depositRecord(2).apiOrder)).toMatchObject({ amount: depositRecord(2).amount, firstSeenAt: 5_000, lastSeenAt: 6_000 });
    expect(getDepositByApiOrder(db, PROFILE, depositRecord(3).apiOrder)).toMatchObject({ firstSeenAt: 6_000, source: 'query' });
    expect(getDepositByApiOrder(db, PROFILE, depositRecord(4).apiOrder)).toBeUndefined();
    expect(moveStagedDeposits(db)).toEqual([]);
  });

  it('keeps the raw record whole through staging, unknown fields included, and summarises per profile and source', () => {
    createProfile(db, { name: 'other', baseUrl: 'https://other.example', merchantId: 'M-2' });
    const record = { ...depositRecord(40), platformNote: 'kept', nested: { b: 2, a: 1 } };
    stageDeposits(db, 'other', [record], 'callback', 9_000);
    stageDeposits(db, PROFILE, [depositRecord(41)], 'query', 9_000);
    expect(moveStagedDeposits(db)).toEqual([
      { profile: 'other', source: 'callback', inserted: 1, touched: 0, conflicts: [] },
      { profile: PROFILE, source: 'query', inserted: 1, touched: 0, conflicts: [] },
    ]);
    expect(getDepositByApiOrder(db, 'other', record.apiOrder)?.raw).toEqual(record);
  });

  it('forgets a deleted profile\'s staged pages', () => {
    createProfile(db, { name: 'gone', baseUrl: 'https://gone.example', merchantId: 'M-3' });
    stageDeposits(db, 'gone', [depositRecord(50)], 'query', 1);
    db.prepare("DELETE FROM profiles WHERE name = 'gone'").run();
    expect(countStagedDeposits(db)).toBe(0);
  });
});

describe('deposit history over 20,000 rows', () => {
  const ROWS = 20_000;
  let db: StoreDatabase;
  let all: Deposit[];
  let observations: DepositObservation[];

  beforeAll(() => {
    db = seededDatabase(temp, 'history.sqlite');
    // Batches of up to 37 deposits share one observation time, as a sync page would: ties are broken by id.
    observations = Array.from({ length: ROWS }, (_, n) => ({
      record: depositRecord(n, { currency: ['trx.usdt', 'trx', 'eth.usdt', 'bnb.usdt'][n % 4] ?? 'trx' }),
      source: n % 2 === 0 ? ('callback' as const) : ('query' as const),
      observedAt: 1_700_000_000_000 + Math.floor(n / 37) * 60_000,
    }));
    insertOrTouchDeposits(db, PROFILE, observations);
    expect(indexDepositSearchBacklog(db)).toBe(ROWS);
    all = listAllNewestFirst();
  });

  function listAllNewestFirst(): Deposit[] {
    const rows: Deposit[] = [];
    let after: string | null = null;
    do {
      const page = listDeposits(db, { profile: PROFILE, limit: 1000, after });
      rows.push(...page.rows);
      after = page.nextCursor;
    } while (after !== null);
    return rows;
  }

  function reference(filter: Omit<DepositQuery, 'profile' | 'limit' | 'after'>): string[] {
    const needle = filter.search?.trim().toLowerCase();
    return all
      .filter((d) => filter.currency === undefined || d.currency === filter.currency)
      .filter((d) => filter.from === undefined || d.firstSeenAt >= filter.from)
      .filter((d) => filter.to === undefined || d.firstSeenAt < filter.to)
      .filter((d) => filter.apiOrders === undefined || filter.apiOrders.includes(d.apiOrder))
      .filter(
        (d) =>
          needle === undefined ||
          needle === '' ||
          [d.txid, d.address, d.fromAddress, d.userOrder, d.apiOrder].some((text) => text.toLowerCase().includes(needle)),
      )
      .map((d) => d.apiOrder);
  }

  function walk(query: Omit<DepositQuery, 'after'>): string[] {
    const seen: string[] = [];
    let after: string | null = null;
    for (let guard = 0; guard < 10_000; guard++) {
      const page = listDeposits(db, { ...query, after });
      expect(page.rows.length).toBeLessThanOrEqual(query.limit);
      seen.push(...page.rows.map((d) => d.apiOrder));
      if (page.nextCursor === null) return seen;
      expect(page.rows.length).toBe(query.limit);
      after = page.nextCursor;
    }
    throw new Error('pagination did not end');
  }

  it('orders everything newest first by (first_seen_at, id), ties broken by id', () => {
    expect(all).toHaveLength(ROWS);
    for (let i = 1; i < all.length; i++) {
      const newer = all[i - 1];
      const older = all[i];
      if (newer === undefined || older === undefined) throw new Error('gap');
      expect(newer.firstSeenAt > older.firstSeenAt || (newer.firstSeenAt === older.firstSeenAt && newer.id > older.id)).toBe(true);
    }
  });

  it('walks filtered keyset pages to exactly the reference rows', () => {
    const start = 1_700_000_000_000;
    const filters: Omit<DepositQuery, 'profile' | 'limit' | 'after'>[] = [
      {},
      { currency: 'trx' },
      { from: start + 100 * 60_000 },
      { to: start + 300 * 60_000 },
      { currency: 'eth.usdt', from: start + 50 * 60_000, to: start + 400 * 60_000 },
      { currency: 'nothing-here' },
    ];
    for (const [index, filter] of filters.entries()) {
      for (const limit of index < 2 ? [37, 500] : [200]) {
        expect(walk({ profile: PROFILE, limit, ...filter }), JSON.stringify({ ...filter, limit })).toEqual(reference(filter));
      }
    }
  });

  it('searches fragments of txids, addresses, senders, userOrders and apiOrders, case-insensitively', () => {
    const sample = all[1234];
    if (sample === undefined) throw new Error('no sample');
    const searches = [
      sample.txid.slice(10, 22),
      sample.txid.slice(5, 11).toUpperCase(),
      sample.address.slice(3, 15),
      sample.fromAddress.slice(-9),
      sample.userOrder,
      sample.apiOrder.slice(4),
      'cust-4', // thousands of matches: the index walk filtered by the match list
      'ust-', // matches everything: the index walk testing each row
      'no such text',
    ];
    for (const search of searches) {
      expect(walk({ profile: PROFILE, limit: 500, search }), search).toEqual(reference({ search }));
      expect(walk({ profile: PROFILE, limit: 40, search, currency: 'trx.usdt', from: 1_700_000_000_000 + 60 * 60_000 }), search).toEqual(
        reference({ search, currency: 'trx.usdt', from: 1_700_000_000_000 + 60 * 60_000 }),
      );
    }
  });

  it('starts from the matches for rare fragments, and walks the index for common ones (match list, then row tests)', () => {
    const sample = all[42];
    if (sample === undefined) throw new Error('no sample');
    expect(buildDepositQuery(db, { profile: PROFILE, limit: 50, search: sample.txid.slice(0, 12) }).plan).toEqual({ kind: 'candidates', search: 'fts' });
    const some = reference({ search: 'cust-4' }).length;
    expect(some).toBeGreaterThan(SEARCH_CANDIDATE_CAP);
    expect(some).toBeLessThanOrEqual(SEARCH_MATCH_LIST_CAP);
    expect(buildDepositQuery(db, { profile: PROFILE, limit: 50, search: 'cust-4' }).plan).toEqual({ kind: 'index', search: 'fts' });
    expect(reference({ search: 'cust-' }).length).toBeGreaterThan(SEARCH_MATCH_LIST_CAP);
    expect(buildDepositQuery(db, { profile: PROFILE, limit: 50, search: 'cust-' }).plan).toEqual({ kind: 'index', search: 'scan' });
    expect(buildDepositQuery(db, { profile: PROFILE, limit: 50, search: ' ' }).plan).toEqual({ kind: 'index', search: 'none' });
  });

  it('finds exactly the same rows, by the same plans, while part of the history waits to be indexed', () => {
    const partly = seededDatabase(temp);
    insertOrTouchDeposits(partly, PROFILE, observations);
    expect(indexDepositSearchBacklog(partly, 12_000)).toBe(12_000);
    expect(depositSearchBacklog(partly)).toBe(ROWS - 12_000);
    const newest = all[10];
    const older = all[15_000];
    if (newest === undefined || older === undefined) throw new Error('no sample');
    const searches = [
      newest.txid.slice(10, 22), // a row of the backlog
      older.txid.slice(3, 15).toUpperCase(), // an indexed row
      newest.address.slice(3, 15),
      older.fromAddress.slice(-9),
      newest.userOrder,
      'cust-4', // matches in both parts: the index walk with the match list or the backlog
      'ust-', // everything: row tests
      'no such text',
    ];
    for (const search of searches) {
      expect(walk2(partly, search), search).toEqual(reference({ search }));
      expect(walk2(partly, search), search).toEqual(walk2(db, search));
      expect(buildDepositQuery(partly, { profile: PROFILE, limit: 64, search }).plan, search).toEqual(buildDepositQuery(db, { profile: PROFILE, limit: 64, search }).plan);
    }
    // Shorter than a trigram: exact identifiers, the same with or without a backlog.
    expect(walk2(partly, newest.apiOrder.slice(-2))).toEqual(walk2(db, newest.apiOrder.slice(-2)));
    // Filtered pages over both parts, and the rare-fragment plan starting from the backlog's row.
    const filter = { currency: 'trx.usdt', from: 1_700_000_000_000 + 60 * 60_000 };
    const page = listDeposits(partly, { profile: PROFILE, limit: 40, search: 'cust-4', ...filter });
    expect(page.rows.map((d) => d.apiOrder)).toEqual(reference({ search: 'cust-4', ...filter }).slice(0, 40));
    expect(buildDepositQuery(partly, { profile: PROFILE, limit: 50, search: newest.txid.slice(0, 12) }).plan).toEqual({ kind: 'candidates', search: 'fts' });
  });

  it('matches fragments shorter than a trigram exactly against userOrder, apiOrder or txid', () => {
    const db2 = seededDatabase(temp);
    insertOrTouchDeposit(db2, PROFILE, depositRecord(1, { userOrder: '42' }), 'query', 1);
    insertOrTouchDeposit(db2, PROFILE, depositRecord(2, { userOrder: '421' }), 'query', 2);
    const page = listDeposits(db2, { profile: PROFILE, limit: 10, search: '42' });
    expect(page.rows.map((d) => d.userOrder)).toEqual(['42']);
    expect(buildDepositQuery(db2, { profile: PROFILE, limit: 10, search: '42' }).plan).toEqual({ kind: 'candidates', search: 'exact' });
  });

  it('keeps only the apiOrders of a label filter, alone or with every other filter, starting from them by the unique index', () => {
    const labelled = [...all.filter((_, n) => n % 67 === 5).map((d) => d.apiOrder), 'API-NOT-STORED', ''];
    const sample = all[5 + 67 * 3];
    if (sample === undefined) throw new Error('no sample');
    const filters: Omit<DepositQuery, 'profile' | 'limit' | 'after'>[] = [
      { apiOrders: labelled },
      { apiOrders: labelled, currency: 'trx.usdt' },
      { apiOrders: labelled, from: 1_700_000_000_000 + 100 * 60_000, to: 1_700_000_000_000 + 400 * 60_000 },
      { apiOrders: labelled, search: sample.txid.slice(4, 16) },
      { apiOrders: labelled, search: 'cust-4' },
      { apiOrders: [] },
    ];
    for (const filter of filters) {
      for (const limit of [7, 500]) expect(walk({ profile: PROFILE, limit, ...filter }), JSON.stringify({ ...filter, apiOrders: filter.apiOrders?.length, limit })).toEqual(reference(filter));
    }
    expect(reference({ apiOrders: labelled })).toHaveLength(labelled.length - 2);
    expect(reference({ apiOrders: labelled, search: sample.txid.slice(4, 16) })).toEqual([sample.apiOrder]);

    const built = buildDepositQuery(db, { profile: PROFILE, limit: 50, apiOrders: labelled });
    expect(built.plan).toEqual({ kind: 'candidates', search: 'label' });
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${built.sql}`).all(built.params) as { detail: string }[]).map((row) => row.detail).join(' | ');
    expect(plan).toMatch(/SEARCH d USING INDEX \S+ \(profile=\? AND api_order=\?\)/);
    expect(plan).not.toMatch(/SCAN d\b/);
  });

  it('treats quotes and FTS operators in a search as plain text', () => {
    for (const search of ['"', 'a"b', 'cust-4 OR 1', 'NEAR(', '*', 'cust*']) {
      expect(walk({ profile: PROFILE, limit: 500, search }), search).toEqual(reference({ search }));
    }
  });

  it('refuses bad cursors and page sizes', () => {
    expect(() => listDeposits(db, { profile: PROFILE, limit: 0 })).toThrow(/page size/);
    expect(() => listDeposits(db, { profile: PROFILE, limit: 1.5 })).toThrow(/page size/);
    expect(() => listDeposits(db, { profile: PROFILE, limit: 10, after: 'garbage' })).toThrow(/cursor/);
  });

  it('uses indexes for pages and txid lookups: no full scan of deposits, no sort', () => {
    const planOf = (sql: string, params: unknown): string[] =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as { detail: string }[]).map((row) => row.detail);
    const first = listDeposits(db, { profile: PROFILE, limit: 50, currency: 'trx', from: 1_700_000_000_000, to: 1_800_000_000_000 });
    const cursor = first.nextCursor ?? undefined;
    const queries: DepositQuery[] = [
      { profile: PROFILE, limit: 50 },
      { profile: PROFILE, limit: 50, after: cursor },
      { profile: PROFILE, limit: 50, currency: 'trx' },
      { profile: PROFILE, limit: 50, currency: 'trx', after: cursor },
      { profile: PROFILE, limit: 50, currency: 'trx', from: 1_700_000_000_000, to: 1_800_000_000_000 },
      { profile: PROFILE, limit: 50, currency: 'trx', from: 1_700_000_000_000, to: 1_800_000_000_000, after: cursor },
      { profile: PROFILE, limit: 50, from: 1_700_000_000_000, to: 1_800_000_000_000, after: cursor },
      { profile: PROFILE, limit: 50, search: 'cust-4', currency: 'trx', after: cursor },
      { profile: PROFILE, limit: 50, search: 'cust-', from: 1_700_000_000_000, after: cursor },
    ];
    for (const query of queries) {
      const built = buildDepositQuery(db, query);
      const plan = planOf(built.sql, built.params);
      const label = JSON.stringify(query);
      expect(plan.some((line) => /^SEARCH d USING INDEX deposits_by_(currency_)?seen \(profile=\?/.test(line)), `${label}: ${plan.join(' | ')}`).toBe(true);
      expect(plan.filter((line) => /SCAN d\b|SCAN deposits\b|TEMP B-TREE/.test(line)), label).toEqual([]);
    }
    const txidPlan = planOf('SELECT * FROM deposits WHERE profile = ? AND txid = ? COLLATE NOCASE', [PROFILE, 'x']);
    expect(txidPlan.join(' | ')).toMatch(/SEARCH deposits USING INDEX deposits_by_txid \(profile=\? AND txid=\?\)/);
    // The txid lookup the repository runs is that statement.
    expect(findDepositByTxid(db, PROFILE, all[9]?.txid ?? '')).toHaveLength(1);
    // A rare-fragment search starts from the ids the trigram index returned and looks each row up by id.
    const rare = buildDepositQuery(db, { profile: PROFILE, limit: 50, search: all[9]?.txid.slice(3, 15) ?? '' });
    expect(rare.plan).toEqual({ kind: 'candidates', search: 'fts' });
    const rarePlan = planOf(rare.sql, rare.params).join(' | ');
    expect(rarePlan).toMatch(/SCAN c VIRTUAL TABLE/);
    expect(rarePlan).toMatch(/SEARCH d USING INTEGER PRIMARY KEY/);
    expect(rarePlan).not.toMatch(/SCAN d\b/);
  });

  it('falls back to scanning when the search index is absent, with the same answers', () => {
    const db2 = seededDatabase(temp);
    insertOrTouchDeposits(
      db2,
      PROFILE,
      all.slice(0, 500).map((d) => ({ record: d.raw as unknown as DepositRecord, source: d.source, observedAt: d.firstSeenAt })),
    );
    const withIndex = (search: string) => walk2(db2, search);
    const expected = ['cust-1', all[3]?.txid.slice(4, 20) ?? 'x', 'ZZZ'].map(withIndex);
    db2.exec('DROP TRIGGER deposits_search_update; DROP TRIGGER deposits_search_delete; DROP TABLE deposits_search;');
    expect(depositSearchMode(db2)).toBe('scan');
    expect(['cust-1', all[3]?.txid.slice(4, 20) ?? 'x', 'ZZZ'].map(withIndex)).toEqual(expected);
    expect(buildDepositQuery(db2, { profile: PROFILE, limit: 10, search: 'cust-1' }).plan).toEqual({ kind: 'index', search: 'scan' });
  });

  function walk2(handle: StoreDatabase, search: string): string[] {
    const out: string[] = [];
    let after: string | null = null;
    do {
      const page = listDeposits(handle, { profile: PROFILE, limit: 64, search, after });
      out.push(...page.rows.map((d) => d.apiOrder));
      after = page.nextCursor;
    } while (after !== null);
    return out;
  }
});
