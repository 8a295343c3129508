// The Deposits screen's list (renderer/src/stores/deposits.ts) when deposits arrive: however many come at once (an
// intake moves up to 5,000 in a first sync), the list then holds every deposit exactly once, newest first, as it is
// scrolled to its end; over HEAD_REFRESH_MAX_PAGES pages new, or new rows that sort below the top, it is read again.
// Against a fake bridge serving keyset pages from an in-memory history, as the engine's deposits/list does.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DepositView, Result, TreasuryBridge } from '../../../electron/contract';
import { DEPOSIT_PAGE_SIZE, HEAD_REFRESH_MAX_PAGES, useDepositsStore } from '../../../renderer/src/stores/deposits';

/** The history, newest first (the engine's order: first seen, then id, descending). */
let history: DepositView[] = [];
let nextId = 1;
let listCalls = 0;

function deposit(id: number): DepositView {
  return { id, apiOrder: `D${id}`, txid: `t${id}`, address: 'TAddr', addressType: 'trx', fromAddress: 'TFrom', amount: '1', currency: 'trx', fee: '0', userOrder: '', firstSeenAt: id, source: 'query' } as unknown as DepositView;
}

/** `count` deposits arrive, newest on top. */
function arrive(count: number): void {
  const added = Array.from({ length: count }, () => deposit(nextId++)).reverse();
  history = added.concat(history);
}

const bridge: TreasuryBridge = {
  call: ((method: string, request: { limit?: number; cursor?: string }) => {
    if (method !== 'deposits/list') return Promise.resolve({ ok: false, error: { code: 'internal', message: `unexpected ${method}` } });
    listCalls += 1;
    const start = request.cursor === undefined ? 0 : history.findIndex((row) => row.id === Number(request.cursor)) + 1;
    const rows = history.slice(start, start + (request.limit ?? DEPOSIT_PAGE_SIZE));
    const more = start + rows.length < history.length;
    return Promise.resolve({ ok: true, value: { rows, nextCursor: more ? String(rows.at(-1)?.id) : null } } satisfies Result<unknown>);
  }) as TreasuryBridge['call'],
  onEvent: () => () => undefined,
};

/** What the list holds once scrolled to its end. */
async function scrolledToEnd(): Promise<number[]> {
  const store = useDepositsStore.getState();
  while (useDepositsStore.getState().nextCursor !== null) await store.loadMore();
  return useDepositsStore.getState().rows.map((row) => row.id);
}

const everyDepositNewestFirst = (): number[] => history.map((row) => row.id);

beforeAll(() => {
  (globalThis as { window?: unknown }).window = { treasury: bridge };
});

afterAll(() => {
  delete (globalThis as { window?: unknown }).window;
});

beforeEach(() => {
  history = [];
  nextId = 1;
  listCalls = 0;
});

describe('the deposits list when deposits arrive', () => {
  it('puts a whole 5,000 batch above the first page, and lists every deposit once', async () => {
    arrive(100);
    await useDepositsStore.getState().reload();
    arrive(5_000);
    await useDepositsStore.getState().refreshHead(5_000);
    expect(useDepositsStore.getState().newSinceOpen).toBe(5_000);
    expect(await scrolledToEnd()).toEqual(everyDepositNewestFirst());
  });

  it('keeps the place of a list scrolled part way, and the rows below it still load', async () => {
    arrive(1_200);
    await useDepositsStore.getState().reload();
    await useDepositsStore.getState().loadMore();
    expect(useDepositsStore.getState().rows).toHaveLength(2 * DEPOSIT_PAGE_SIZE);
    arrive(700);
    listCalls = 0;
    await Promise.all([useDepositsStore.getState().refreshHead(300), useDepositsStore.getState().refreshHead(400)]);
    expect(listCalls).toBe(3); // two pages from the top, then the top page again (the second refresh, after the first)
    expect(useDepositsStore.getState().rows).toHaveLength(2 * DEPOSIT_PAGE_SIZE + 700);
    expect(await scrolledToEnd()).toEqual(everyDepositNewestFirst());
  });

  it(`reads the list again when more than ${HEAD_REFRESH_MAX_PAGES} pages arrived at once`, async () => {
    arrive(10);
    await useDepositsStore.getState().reload();
    arrive(HEAD_REFRESH_MAX_PAGES * DEPOSIT_PAGE_SIZE + 1);
    await useDepositsStore.getState().refreshHead(HEAD_REFRESH_MAX_PAGES * DEPOSIT_PAGE_SIZE + 1);
    expect(useDepositsStore.getState().rows).toHaveLength(DEPOSIT_PAGE_SIZE);
    expect(await scrolledToEnd()).toEqual(everyDepositNewestFirst());
  });

  it('reads the list again when a new deposit sorts below the top (first seen before the newest held)', async () => {
    arrive(600);
    await useDepositsStore.getState().reload();
    const lower = deposit(nextId++);
    history.splice(3, 0, lower);
    await useDepositsStore.getState().refreshHead(1);
    expect(useDepositsStore.getState().rows.map((row) => row.id).slice(0, 5)).toEqual(everyDepositNewestFirst().slice(0, 5));
    expect(await scrolledToEnd()).toEqual(everyDepositNewestFirst());
  });
});
