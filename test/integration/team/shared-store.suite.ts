// The ONE test suite every SharedDeskStore backend passes (run by sqlite-store.test.ts and postgres-store.test.ts):
// identity, appends against an expected head, chain reads, projections and paging, submission claims under
// concurrency, witness requests and head acks, live notifications, and (where the runner can) outages and bad
// connection input.
import { afterEach, describe, expect, it } from 'vitest';
import type { SignedHeadAck } from '../../../electron/core/statements/head-ack';
import { SharedStoreError, type ConnectionState, type SharedDeskStore, type SharedStoreErrorKind, type WitnessSignal } from '../../../electron/core/team/shared-store';
import { chainRows } from '../../support/shared-chain';

export interface BadConnectionCase {
  readonly description: string;
  readonly open: () => Promise<SharedDeskStore>;
  readonly kind: SharedStoreErrorKind;
  /** Text the error must say (what is wrong / what to do). */
  readonly says: RegExp;
  /** A secret of the input (a password) that must appear nowhere in the error. */
  readonly secret?: string;
}

export interface SharedStoreRunner {
  /** A fresh, empty database; the function opens a store on it (call it twice for two workstations). */
  fresh(): Promise<() => Promise<SharedDeskStore>>;
  /** Marks the current database as written by a newer Treasury Desk. */
  makeSchemaNewer(): Promise<void>;
  /** Stops and starts the database server (PostgreSQL); absent where there is no server. */
  readonly server?: { stop(): void; start(): void };
  readonly badConnections: readonly BadConnectionCase[];
}

async function expectRefusal(promise: Promise<unknown>, kind: SharedStoreErrorKind, says?: RegExp): Promise<SharedStoreError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(SharedStoreError);
  const refusal = error as SharedStoreError;
  expect(refusal.kind).toBe(kind);
  if (says !== undefined) expect(refusal.message).toMatch(says);
  return refusal;
}

function waitFor<T>(what: string, probe: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const tick = (): void => {
      const value = probe();
      if (value !== undefined) resolve(value);
      else if (Date.now() - started > timeoutMs) reject(new Error(`timed out waiting for ${what}`));
      else setTimeout(tick, 10);
    };
    tick();
  });
}

export function describeSharedStore(name: string, runner: SharedStoreRunner): void {
  describe(`shared store: ${name}`, () => {
    const opened: SharedDeskStore[] = [];
    let openStore: () => Promise<SharedDeskStore>;

    async function store(): Promise<SharedDeskStore> {
      const opening = await openStore();
      opened.push(opening);
      return opening;
    }

    async function initialisedStore(): Promise<SharedDeskStore> {
      openStore = await runner.fresh();
      const desk = await store();
      await desk.initialise('desk-a', 1_700_000_000_000);
      return desk;
    }

    afterEach(async () => {
      runner.server?.start();
      await Promise.all(opened.splice(0).map((each) => each.close()));
    });

    describe('identity', () => {
      it('is null on an empty database, then records the desk once; the same desk may initialise again', async () => {
        openStore = await runner.fresh();
        const desk = await store();
        expect(await desk.identity()).toBeNull();
        await desk.initialise('desk-a', 1_700_000_000_000);
        const identity = await desk.identity();
        expect(identity).toMatchObject({ deskId: 'desk-a', createdAt: 1_700_000_000_000 });
        expect(identity?.schemaVersion).toBeGreaterThanOrEqual(10);
        await desk.initialise('desk-a', 1_800_000_000_000);
        expect(await (await store()).identity()).toEqual(identity);
      });

      it("refuses another desk's database and leaves it as it was", async () => {
        const desk = await initialisedStore();
        await desk.append(chainRows(null, 2), [], null);
        await expectRefusal(desk.initialise('desk-b', 1_800_000_000_000), 'otherDesk', /belongs to another desk \(desk-a.*team join/);
        expect((await desk.identity())?.deskId).toBe('desk-a');
        expect((await desk.head())?.seq).toBe(2);
      });

      it('lets one of two workstations initialising at once with different desks win; the other is refused', async () => {
        openStore = await runner.fresh();
        const [first, second] = [await store(), await store()];
        const outcomes = await Promise.allSettled([first.initialise('desk-a', 1), second.initialise('desk-b', 2)]);
        expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
        const refused = outcomes.find((outcome) => outcome.status === 'rejected');
        expect(refused?.status === 'rejected' && refused.reason instanceof SharedStoreError && refused.reason.kind).toBe('otherDesk');
      });

      it('refuses a database written by a newer Treasury Desk, saying to update', async () => {
        await initialisedStore();
        await runner.makeSchemaNewer();
        await expectRefusal(
          (async () => {
            const desk = await store();
            await desk.identity();
          })(),
          'newerSchema',
          /created by a newer Treasury Desk \(schema \d+; .*update this workstation/,
        );
      });

      it('refuses bad desk ids and times', async () => {
        openStore = await runner.fresh();
        const desk = await store();
        await expectRefusal(desk.initialise('', 1), 'invalidArgument', /desk id/);
        await expectRefusal(desk.initialise('desk-a', Number.NaN), 'invalidArgument', /creation time/);
        expect(await desk.identity()).toBeNull();
      });
    });

    describe('the chain', () => {
      it('appends against the expected head and answers a conflict with the current head, writing nothing', async () => {
        const desk = await initialisedStore();
        expect(await desk.head()).toBeNull();
        const first = chainRows(null, 3);
        expect(await desk.append(first, [], null)).toEqual({ appended: true, head: { seq: 3, hash: first[2]?.hash } });
        const stale = await desk.append(chainRows(null, 1), [{ table: 'withdrawal_requests', key: 'wd-stale', row: { state: 'pending' } }], null);
        expect(stale).toEqual({ appended: false, head: { seq: 3, hash: first[2]?.hash } });
        expect((await desk.projection('withdrawal_requests', { limit: 10 })).rows).toEqual([]);
        const head = { seq: 3, hash: first[2]?.hash ?? '' };
        expect((await desk.append(chainRows(head, 2), [], head)).appended).toBe(true);
        expect((await desk.head())?.seq).toBe(5);
      });

      it('lets exactly one of ten concurrent writers extend the same head', async () => {
        const desk = await initialisedStore();
        const other = await store();
        const base = chainRows(null, 1);
        await desk.append(base, [], null);
        const head = { seq: 1, hash: base[0]?.hash ?? '' };
        const outcomes = await Promise.all(
          Array.from({ length: 10 }, (_, index) => (index % 2 === 0 ? desk : other).append(chainRows(head, 1, 1_800_000_000_000 + index), [], head)),
        );
        expect(outcomes.filter((outcome) => outcome.appended)).toHaveLength(1);
        expect((await desk.rowsAfter(0, 100)).map((row) => row.seq)).toEqual([1, 2]);
      });

      it('refuses rows that do not chain onto the expected head, writing nothing', async () => {
        const desk = await initialisedStore();
        const rows = chainRows(null, 3);
        await expectRefusal(desk.append([rows[0], rows[2]].filter((row) => row !== undefined), [], null), 'invalidArgument', /does not follow 1/);
        await expectRefusal(desk.append(rows, [], { seq: 7, hash: 'f'.repeat(64) }), 'invalidArgument', /does not follow 7/);
        await expectRefusal(desk.append([], [], null), 'invalidArgument', /at least one/);
        const broken = rows.map((row, index) => (index === 1 ? { ...row, prevHash: 'a'.repeat(64) } : row));
        await expectRefusal(desk.append(broken, [], null), 'invalidArgument', /does not link to row 1/);
        await expectRefusal(
          desk.append(rows, [{ table: 'withdrawal_requests', key: 'wd-1', row: { 'state; DROP': 'x' } }], null),
          'invalidArgument',
          /not a field name/,
        );
        expect(await desk.head()).toBeNull();
      });

      it('reads rows after a seq in order, at most the limit, exactly as appended', async () => {
        const desk = await initialisedStore();
        const rows = chainRows(null, 25);
        await desk.append(rows, [], null);
        expect(await desk.rowsAfter(0, 10)).toEqual(rows.slice(0, 10));
        expect((await desk.rowsAfter(20, 10)).map((row) => row.seq)).toEqual([21, 22, 23, 24, 25]);
        expect(await desk.rowsAfter(25, 10)).toEqual([]);
        await expectRefusal(desk.rowsAfter(0, 0), 'invalidArgument', /from 1 to/);
        await expectRefusal(desk.rowsAfter(-1, 5), 'invalidArgument', /from 0 to/);
      });
    });

    describe('projections', () => {
      async function deskWithRequests(count: number): Promise<SharedDeskStore> {
        const desk = await initialisedStore();
        const writes = Array.from({ length: count }, (_, index) => ({
          table: 'withdrawal_requests' as const,
          key: `wd-${String(index).padStart(3, '0')}`,
          row: { userOrder: `wd-${String(index).padStart(3, '0')}`, state: index % 3 === 0 ? 'approved' : 'pending', amount: '1.50', approvals: index % 3, final: false },
        }));
        await desk.append(chainRows(null, 1), writes, null);
        return desk;
      }

      it('pages in key order with a cursor until the last page', async () => {
        const desk = await deskWithRequests(25);
        const keys: string[] = [];
        let after: string | null = null;
        let pages = 0;
        do {
          const page = await desk.projection('withdrawal_requests', { limit: 10, after });
          keys.push(...page.rows.map((row) => row.key));
          after = page.nextCursor;
          pages += 1;
        } while (after !== null);
        expect(pages).toBe(3);
        expect(keys).toEqual([...keys].sort());
        expect(new Set(keys).size).toBe(25);
      });

      it('filters on text fields (a number field never matches its text), and names each row by its id', async () => {
        const desk = await deskWithRequests(25);
        const pending = await desk.projection('withdrawal_requests', { limit: 100, where: { state: 'pending' } });
        expect(pending.rows).toHaveLength(16);
        expect(pending.rows.every((row) => row.row['state'] === 'pending' && row.table === 'withdrawal_requests' && Number.isInteger(row.rowId))).toBe(true);
        expect((await desk.projection('withdrawal_requests', { limit: 100, where: { state: 'pending', userOrder: 'wd-001' } })).rows).toHaveLength(1);
        expect((await desk.projection('withdrawal_requests', { limit: 100, where: { approvals: '1' } })).rows).toHaveLength(0);
        expect((await desk.projection('approvals', { limit: 100 })).rows).toHaveLength(0);
      });

      it('replaces a row written again under the same key (same row id), within the append', async () => {
        const desk = await deskWithRequests(2);
        const before = (await desk.projection('withdrawal_requests', { limit: 10, where: { userOrder: 'wd-001' } })).rows[0];
        const head = await desk.head();
        await desk.append(chainRows(head, 1), [{ table: 'withdrawal_requests', key: 'wd-001', row: { userOrder: 'wd-001', state: 'approved' } }], head);
        const after = (await desk.projection('withdrawal_requests', { limit: 10, where: { userOrder: 'wd-001' } })).rows[0];
        expect(after?.row).toEqual({ userOrder: 'wd-001', state: 'approved' });
        expect(after?.rowId).toBe(before?.rowId);
      });

      it('keeps batches, address-book rows and labels in their own tables, queried by state', async () => {
        const desk = await deskWithRequests(1);
        const head = await desk.head();
        await desk.append(
          chainRows(head, 1),
          [
            { table: 'payout_batches', key: 'main/b1', row: { profile: 'main', batchHash: 'b1', lineCount: 3, state: 'awaitingApproval' } },
            { table: 'address_book', key: 'main/trx:T1', row: { profile: 'main', chain: 'trx', address: 'T1', label: null, state: 'proposed' } },
            { table: 'labels', key: 'main/deposit:D1', row: { profile: 'main', type: 'deposit', ref: 'D1', label: 'rent', note: null } },
          ],
          head,
        );
        expect((await desk.projection('payout_batches', { limit: 10, where: { state: 'awaitingApproval' } })).rows.map((row) => row.row)).toEqual([
          { profile: 'main', batchHash: 'b1', lineCount: 3, state: 'awaitingApproval' },
        ]);
        expect((await desk.projection('address_book', { limit: 10, where: { state: 'inForce' } })).rows).toEqual([]);
        expect((await desk.projection('address_book', { limit: 10, where: { state: 'proposed' } })).rows.map((row) => row.key)).toEqual(['main/trx:T1']);
        expect((await desk.projection('labels', { limit: 10 })).rows.map((row) => row.row['label'])).toEqual(['rent']);
        expect((await desk.projection('withdrawal_requests', { limit: 10, where: { userOrder: 'main/b1' } })).rows).toEqual([]);
      });

      it('refuses an unknown table, a bad field name and a bad page size', async () => {
        const desk = await deskWithRequests(1);
        await expectRefusal(desk.projection('deposits' as 'approvals', { limit: 10 }), 'invalidArgument', /no projection table named "deposits"/);
        await expectRefusal(desk.projection('approvals', { limit: 10, where: { "x') OR ('1": '1' } }), 'invalidArgument', /not a field name/);
        await expectRefusal(desk.projection('approvals', { limit: 0 }), 'invalidArgument', /page size/);
      });
    });

    describe('submission claims', () => {
      it('gives exactly one of 50 concurrent claimers the claim; the others are told who holds it', async () => {
        const desk = await initialisedStore();
        const other = await store();
        const outcomes = await Promise.all(
          Array.from({ length: 50 }, (_, index) => (index % 2 === 0 ? desk : other).claimSubmission('wd-race', `ws-${index}`, 60_000)),
        );
        const winners = outcomes.filter((outcome) => outcome.claimed);
        expect(winners).toHaveLength(1);
        const winner = winners[0]?.claimed === true ? winners[0].claim.workstation : '';
        for (const outcome of outcomes) {
          if (!outcome.claimed) expect(outcome.heldBy.workstation).toBe(winner);
        }
        expect((await desk.getClaim('wd-race'))?.workstation).toBe(winner);
      });

      it('refuses a live lease naming the holder, and takes over an expired one reporting whose it was', async () => {
        const desk = await initialisedStore();
        const first = await desk.claimSubmission('wd-1', 'ws-a', 60_000);
        expect(first).toMatchObject({ claimed: true, tookOverFrom: null, claim: { workstation: 'ws-a', state: 'claimed', result: null } });
        expect(await desk.claimSubmission('wd-1', 'ws-b', 60_000)).toMatchObject({ claimed: false, heldBy: { workstation: 'ws-a' } });

        await desk.claimSubmission('wd-2', 'ws-a', 1);
        expect(await desk.updateClaim('wd-2', 'ws-a', { state: 'sent' })).toBe(true);
        await new Promise((resolve) => setTimeout(resolve, 30));
        const takeover = await desk.claimSubmission('wd-2', 'ws-b', 60_000);
        expect(takeover).toMatchObject({ claimed: true, claim: { workstation: 'ws-b', state: 'claimed' }, tookOverFrom: { workstation: 'ws-a', state: 'sent' } });
        // The old holder has lost it.
        expect(await desk.updateClaim('wd-2', 'ws-a', { state: 'done', result: 'x' })).toBe(false);
      });

      it("renews the holder's own lease, keeps a done claim final, and refuses bad arguments", async () => {
        const desk = await initialisedStore();
        const first = await desk.claimSubmission('wd-1', 'ws-a', 1_000);
        const renewed = await desk.claimSubmission('wd-1', 'ws-a', 60_000);
        expect(renewed.claimed && first.claimed && renewed.claim.leaseUntil > first.claim.leaseUntil).toBe(true);
        expect(await desk.updateClaim('wd-1', 'ws-a', { state: 'done', result: 'order 42', leaseMs: 1 })).toBe(true);
        await new Promise((resolve) => setTimeout(resolve, 20));
        expect(await desk.claimSubmission('wd-1', 'ws-b', 60_000)).toMatchObject({ claimed: false, heldBy: { workstation: 'ws-a', state: 'done', result: 'order 42' } });
        expect(await desk.updateClaim('wd-1', 'ws-a', { state: 'claimed' })).toBe(false);
        expect(await desk.getClaim('wd-missing')).toBeNull();
        await expectRefusal(desk.claimSubmission('', 'ws-a', 1_000), 'invalidArgument', /userOrder/);
        await expectRefusal(desk.claimSubmission('wd-3', 'ws-a', 0), 'invalidArgument', /lease/);
        await expectRefusal(desk.updateClaim('wd-1', 'ws-a', { state: 'gone' as 'done' }), 'invalidArgument', /claimed, sent, unknown or done/);
      });
    });

    describe('witness requests and head acks', () => {
      const nonce = (digit: string): string => digit.repeat(32);
      const ack = (workstation: string, seq: number, nonceText: string | null): SignedHeadAck => ({
        deskId: 'desk-a',
        workstation,
        seq,
        hash: (seq % 10).toString().repeat(64),
        nonce: nonceText,
        at: 1_700_000_000_000 + seq,
        keyId: `key-${workstation}`,
        signature: `signature-${workstation}-${seq}`,
      });

      it('records requests for every workstation to read after an id, the asker named, oldest first', async () => {
        const asker = await initialisedStore();
        const answerer = await store();
        const first = await asker.requestWitness(nonce('a'), 'ws-a');
        const second = await asker.requestWitness(nonce('b'), 'ws-b');
        expect(second.id).toBeGreaterThan(first.id);
        expect(await answerer.witnessRequests(0, 60_000)).toEqual([first, second]);
        expect(await answerer.witnessRequests(first.id, 60_000)).toEqual([second]);
        expect(await answerer.witnessRequests(second.id, 60_000)).toEqual([]);
      });

      it('appends every ack as a new row and reads the newest per workstation, all or bound to one nonce', async () => {
        const desk = await initialisedStore();
        const other = await store();
        await desk.appendHeadAck(ack('ws-a', 1, null));
        await desk.appendHeadAck(ack('ws-a', 2, nonce('c')));
        await other.appendHeadAck(ack('ws-b', 3, nonce('c')));
        await other.appendHeadAck(ack('ws-a', 4, nonce('d')));
        const newest = await other.headAcks();
        expect(newest.map((each) => [each.workstation, each.seq])).toEqual([
          ['ws-a', 4],
          ['ws-b', 3],
        ]);
        expect(newest[0]).toEqual(ack('ws-a', 4, nonce('d')));
        expect((await desk.headAcks(nonce('c'))).map((each) => [each.workstation, each.seq])).toEqual([
          ['ws-a', 2],
          ['ws-b', 3],
        ]);
        expect(await desk.headAcks(nonce('e'))).toEqual([]);
      });

      it('refuses a malformed nonce or ack, writing nothing', async () => {
        const desk = await initialisedStore();
        await expectRefusal(desk.requestWitness('not-a-nonce', 'ws-a'), 'invalidArgument', /32 lowercase hex/);
        await expectRefusal(desk.requestWitness(nonce('a'), ''), 'invalidArgument', /workstation name/);
        await expectRefusal(desk.appendHeadAck({ ...ack('ws-a', 1, null), hash: 'short' }), 'invalidArgument', /hash must be 64/);
        await expectRefusal(desk.appendHeadAck({ ...ack('ws-a', 1, null), nonce: 'x' }), 'invalidArgument', /nonce must be null or 32/);
        await expectRefusal(desk.appendHeadAck({ ...ack('ws-a', 1, null), signature: '' }), 'invalidArgument', /signature must be 1 to 400/);
        await expectRefusal(desk.witnessRequests(-1, 60_000), 'invalidArgument', /witness request id/);
        expect(await desk.witnessRequests(0, 60_000)).toEqual([]);
        expect(await desk.headAcks()).toEqual([]);
      });

      it("tells another workstation's witness subscriber of a request and of an ack (with its nonce)", async () => {
        const asker = await initialisedStore();
        const answerer = await store();
        const signals: WitnessSignal[] = [];
        const stop = await answerer.subscribe(
          () => undefined,
          () => undefined,
          (signal) => signals.push(signal),
        );
        await asker.requestWitness(nonce('f'), 'ws-a');
        await waitFor('the request signal', () => (signals.some((signal) => signal.kind === 'request') ? true : undefined), 2_000);
        await asker.appendHeadAck(ack('ws-b', 1, nonce('f')));
        await waitFor('the ack signal', () => (signals.some((signal) => signal.kind === 'ack' && signal.nonce === nonce('f')) ? true : undefined), 2_000);
        await stop();
      });
    });

    describe('live', () => {
      it("tells another workstation's subscriber of an append within 1 s", async () => {
        const writer = await initialisedStore();
        const reader = await store();
        const seen: number[] = [];
        const states: ConnectionState[] = [];
        const stop = await reader.subscribe(
          (seq) => seen.push(seq),
          (state) => states.push(state),
        );
        expect(states[0]).toMatchObject({ connected: true, reason: null });
        let head = await writer.head();
        const latenciesMs: number[] = [];
        for (let round = 0; round < 5; round += 1) {
          const started = performance.now();
          const outcome = await writer.append(chainRows(head, 1), [], head);
          if (!outcome.appended) throw new Error('append refused');
          head = outcome.head;
          const target = head.seq;
          await waitFor('the notification', () => (seen.includes(target) ? true : undefined), 2_000);
          latenciesMs.push(performance.now() - started);
        }
        expect(Math.max(...latenciesMs)).toBeLessThan(1_000);
        await stop();
        await writer.append(chainRows(head, 1), [], head);
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(seen).toEqual([1, 2, 3, 4, 5]);
      });

      const server = runner.server;
      // Registered only where there is a server to stop (never a skipped test).
      if (server !== undefined) it('reports an outage with its reason and since when, refuses writes meanwhile, then reconnects and catches up', async () => {
        const writer = await initialisedStore();
        const reader = await store();
        const seen: number[] = [];
        const states: ConnectionState[] = [];
        await reader.subscribe(
          (seq) => seen.push(seq),
          (state) => states.push(state),
        );
        const beforeStop = Date.now();
        server.stop();
        const down = await waitFor('the outage report', () => states.find((state) => !state.connected));
        expect(down.reason).toEqual(expect.any(String));
        expect(down.reason?.length).toBeGreaterThan(5);
        expect(down.since).toBeGreaterThanOrEqual(beforeStop - 1);
        await expectRefusal(writer.append(chainRows(null, 1), [], null), 'unreachable', /try again/);
        await expectRefusal(writer.claimSubmission('wd-1', 'ws-a', 1_000), 'unreachable');
        server.start();
        await waitFor('the reconnect', () => (states.at(-1)?.connected === true ? true : undefined), 15_000);
        // A write made by another workstation after the restart is seen; so is the head after reconnecting.
        const outcome = await writer.append(chainRows(null, 2), [], null);
        expect(outcome.appended).toBe(true);
        await waitFor('the catch-up', () => (seen.includes(2) ? true : undefined), 5_000);
      });
    });

    describe('bad connection input', () => {
      it.each(runner.badConnections.map((each) => [each.description, each] as const))('%s: a clear refusal without the password', async (_, each) => {
        const refusal = await expectRefusal(each.open(), each.kind, each.says);
        if (each.secret !== undefined) {
          expect(refusal.message).not.toContain(each.secret);
          expect(JSON.stringify(refusal, Object.getOwnPropertyNames(refusal))).not.toContain(each.secret);
          expect(String(refusal.stack)).not.toContain(each.secret);
        }
      });
    });
  });
}
