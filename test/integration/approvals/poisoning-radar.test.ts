// The poisoning radar (issue 21 item 3) on a real desk, real SQLite and the real sandbox on loopback: dust credited
// through the sandbox's admin API from each poisoning pattern raises one alert and blocks the look-alike at preflight;
// an unrelated sender and a sender that is in the book raise none; clearing needs two admins, and a forged confirmation
// written into the database clears nothing; the policy simulator and the approver's review say the same.
import { randomBytes } from 'node:crypto';
import { base58 } from '@scure/base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toEip55, validateAddress } from '../../../electron/chains';
import { type DeskNotification, reviewLines } from '../../../electron/contract';
import { ADMIN, APPROVER, collectNotices, INITIATOR, SECOND_ADMIN, type Desk } from '../engine/support';
import { addApprovedToBook, creditDeposit, expectNoOrder, fundedDesk, inspect, tamper, valueOn } from './support';

const hex = (bytes: number): string => randomBytes(bytes).toString('hex');
/** A hexadecimal digit other than `digit`. */
const otherHex = (digit: string | undefined): string => (digit === 'a' ? 'b' : 'a');

/** A lower-case EVM address without `0x` in front: what the radar compares. */
function evmHex(): string {
  return hex(20);
}

/** A look-alike sharing exactly `first` leading and `last` trailing hex digits with `known` (both without `0x`). */
function evmLookAlike(known: string, first: number, last: number): string {
  const middle = hex(20).slice(0, 40 - first - last - 2);
  return `${known.slice(0, first)}${otherHex(known[first])}${middle}${otherHex(known[40 - last - 1])}${known.slice(40 - last)}`;
}

/** A Solana address (base58 of 32 bytes) with a letter in its middle whose other case is also base58. */
function solanaPair(): { known: string; caseVariant: string } {
  for (;;) {
    const known = base58.encode(randomBytes(32));
    for (let index = 8; index < known.length - 8; index += 1) {
      const character = known[index] ?? '';
      const flipped = character === character.toLowerCase() ? character.toUpperCase() : character.toLowerCase();
      if (flipped === character || 'OIl0'.includes(flipped)) continue;
      const caseVariant = `${known.slice(0, index)}${flipped}${known.slice(index + 1)}`;
      if (validateAddress('solana', caseVariant).valid) return { known, caseVariant };
    }
  }
}

let desk: Desk;
let evmDepositAddress = '';
const book = { sameEdges: evmHex(), similarEdges: evmHex() };
const solana = solanaPair();
const patterns = {
  sameEdges: `0x${evmLookAlike(book.sameEdges, 4, 4)}`,
  similarEdges: `0x${evmLookAlike(book.similarEdges, 3, 5)}`,
  caseOnly: solana.caseVariant,
  /** Credited only after a restart (the notifications' test). */
  fourth: `0x${evmLookAlike(book.similarEdges, 5, 4)}`,
};
const unrelated = `0x${evmHex()}`;

const credit = (toAddress: string, currency: string, amount: string, fromAddress: string): Promise<void> => creditDeposit(desk, toAddress, currency, amount, fromAddress);
const addToBook = (chain: string, address: string): Promise<void> => addApprovedToBook(desk, chain, address);

async function preflightErrors(currency: string, toAddress: string): Promise<string> {
  const check = await desk.value('withdrawals/preflight', { currency, amount: '25', toAddress });
  return check.errors.map((error) => error.message).join('\n');
}

beforeAll(async () => {
  desk = await fundedDesk();
  await addToBook('eth', `0x${book.sameEdges}`);
  await addToBook('eth', `0x${book.similarEdges}`);
  await addToBook('solana', solana.known);
  const evmDeposit = await desk.value('addresses/create', { addressType: 'eth_bnb', as: INITIATOR });
  evmDepositAddress = evmDeposit.address;
  const solanaDeposit = await desk.value('addresses/create', { addressType: 'solana', as: INITIATOR });
  // Dust: the least the service credits (deposit_min), on bnb while the book entries are eth (one EVM format).
  await credit(evmDeposit.address, 'bnb.usdt', '1', patterns.sameEdges);
  await credit(evmDeposit.address, 'bnb.usdt', '1', patterns.sameEdges);
  // The same sender in another letter case (EIP-55), on eth: still the same sender, one alert.
  await credit(evmDeposit.address, 'eth.usdt', '10', toEip55(patterns.sameEdges.slice(2)));
  await credit(evmDeposit.address, 'bnb.usdt', '1', patterns.similarEdges);
  await credit(solanaDeposit.address, 'solana.usdt', '1', patterns.caseOnly);
  await credit(evmDeposit.address, 'bnb.usdt', '1', unrelated);
  // A book address itself, written with its checksum case: the same address, in the book.
  await credit(evmDeposit.address, 'bnb.usdt', '1', toEip55(book.sameEdges));
  await desk.value('sync/run', {});
});
afterAll(async () => desk?.close());

describe('the radar', () => {
  it('raises exactly one alert per poisoning pattern, with the book entry it looks like and its first deposit as evidence', async () => {
    const radar = await desk.value('radar/list', {});
    expect(radar.blocked).toBe(3);
    const bySender = new Map(radar.alerts.map((alert) => [alert.sender.toLowerCase(), alert]));
    expect(radar.alerts).toHaveLength(3);
    expect(bySender.get(patterns.sameEdges)).toMatchObject({ looksLike: `eth:0x${book.sameEdges}`, similarity: 'the same first 4 and last 4 characters', deposits: 3, status: 'blocked' });
    // The evidence is the deposit stored first (one sync stores a page newest first): one of the sender's three.
    expect(['bnb.usdt', 'eth.usdt']).toContain(bySender.get(patterns.sameEdges)?.firstDeposit.currency);
    expect(bySender.get(patterns.sameEdges)?.firstDeposit.txid).not.toBe('');
    expect(bySender.get(patterns.similarEdges)).toMatchObject({ looksLike: `eth:0x${book.similarEdges}`, similarity: 'the same first 3 and last 5 characters', deposits: 1 });
    expect(bySender.get(patterns.caseOnly.toLowerCase())).toMatchObject({ sender: patterns.caseOnly, looksLike: `solana:${solana.known}`, similarity: 'the same characters in another letter case' });
    expect(bySender.has(unrelated)).toBe(false);
  });

  it('marks the look-alikes’ deposit rows, and no other', async () => {
    const page = await desk.value('deposits/list', { limit: 50 });
    const flagged = page.rows.filter((row) => row.poisoning !== null);
    expect(flagged).toHaveLength(5);
    expect(new Set(flagged.map((row) => row.fromAddress.toLowerCase()))).toEqual(new Set([patterns.sameEdges, patterns.similarEdges, patterns.caseOnly.toLowerCase()]));
    expect(page.rows.filter((row) => row.poisoning === null)).toHaveLength(2);
  });

  it('records each sender once in the audit trail, by the desk key, as the intake first saw it', async () => {
    const audited = await desk.value('audit/list', { action: 'deposits/poisoningSuspected', limit: 50 });
    expect(audited.rows.map((row) => (row.subject ?? '').toLowerCase()).sort()).toEqual([patterns.caseOnly.toLowerCase(), patterns.sameEdges, patterns.similarEdges].sort());
  });

  it('refuses each look-alike at preflight (on any chain of its format) naming the book entry and how to clear it; not an unrelated address', async () => {
    const sameEdges = await preflightErrors('eth.usdt', patterns.sameEdges);
    expect(sameEdges).toContain(`looks like book entry eth:0x${book.sameEdges} (the same first 4 and last 4 characters)`);
    expect(sameEdges).toMatch(/was likely address poisoning; an admin clears it with "treasury-desk radar clear 0x[0-9a-f]{40} --as ADMIN"/);
    expect(await preflightErrors('bnb.usdt', toEip55(patterns.sameEdges.slice(2)))).toContain('was likely address poisoning');
    expect(await preflightErrors('bnb.usdt', patterns.similarEdges)).toContain('(the same first 3 and last 5 characters)');
    expect(await preflightErrors('solana.usdt', patterns.caseOnly)).toContain('(the same characters in another letter case)');
    expect(await preflightErrors('eth.usdt', unrelated)).not.toContain('poisoning');
    // A request is refused too (it runs the preflight), and nothing is stored.
    const requested = await desk.call('withdrawals/request', { currency: 'bnb.usdt', amount: '25', toAddress: patterns.similarEdges, as: INITIATOR });
    expect(requested.ok).toBe(false);
    if (!requested.ok) expect(requested.error.message).toContain('was likely address poisoning');
  });

  it('tells every operator once per sender, history included; after a restart only a sender first seen since', async () => {
    const engine = await desk.reopen({ notifications: { reviewIntervalMs: 60_000 } });
    const notices = collectNotices(engine);
    const raised = (await notices.after(0, 3)).filter((notice: DeskNotification) => notice.kind === 'poisoningSuspected');
    expect(raised).toHaveLength(3);
    for (const notice of raised) {
      expect(notice.title).toBe('A deposit looks like address poisoning');
      expect(notice.recipients).toEqual(expect.arrayContaining([ADMIN.operator, SECOND_ADMIN.operator, INITIATOR.operator, APPROVER.operator]));
      expect(notice.discreetBody).not.toMatch(/0x|[1-9A-HJ-NP-Za-km-z]{32}/);
    }
    await engine.close();
    // Restarted: a fourth look-alike's dust arrives and is synced; only it is told (the three were claimed).
    const again = await desk.reopen({ notifications: { reviewIntervalMs: 60_000 } });
    const later = collectNotices(again);
    await credit(evmDepositAddress, 'bnb.usdt', '1', patterns.fourth);
    await valueOn(again, 'sync/run', {});
    const told = (await later.after(0, 1)).filter((notice) => notice.kind === 'poisoningSuspected');
    expect(told).toHaveLength(1);
    expect(told[0]?.body).toContain(patterns.fourth);
    await again.close();
    expect((await desk.value('radar/list', {})).blocked).toBe(4);
  });
});

describe('clearing a flagged address', () => {
  it('refuses a non-admin and an address the radar did not flag, changing nothing', async () => {
    const byInitiator = await desk.call('radar/clear', { address: patterns.similarEdges, as: INITIATOR });
    expect(byInitiator.ok).toBe(false);
    if (!byInitiator.ok) expect(byInitiator.error.code).toBe('forbidden');
    const unflagged = await desk.call('radar/clear', { address: unrelated, as: ADMIN });
    expect(unflagged.ok).toBe(false);
    if (!unflagged.ok) expect(unflagged.error.message).toContain('is not an address the poisoning radar flagged');
    expect((await desk.value('radar/list', {})).blocked).toBe(4);
  });

  it("needs two admins: one admin's proposal alone does not clear, nor a confirmation forged in the database; the second admin's does", async () => {
    const proposed = await desk.value('radar/clear', { address: patterns.similarEdges, as: ADMIN });
    expect(proposed.status).toBe('clearing');
    expect(await preflightErrors('bnb.usdt', patterns.similarEdges)).toContain('was likely address poisoning');
    const again = await desk.call('radar/clear', { address: patterns.similarEdges, as: ADMIN });
    expect(again.ok).toBe(false);
    if (!again.ok) expect(again.error.message).toContain('another, independent admin confirms it');

    // An attacker with the file turns frank's signed confirmation of another proposal into one of this clearance.
    const proposal = proposed.clearing?.id ?? '';
    const original = inspect(desk, (db) => db.prepare("SELECT seq, statement FROM audit_log WHERE kind = 'confirm' AND operator = ? ORDER BY seq LIMIT 1").get(SECOND_ADMIN.operator) as { seq: number; statement: string });
    const named = /"proposal":"([0-9a-f]{64})"/.exec(original.statement)?.[1] ?? '';
    expect(named).not.toBe('');
    tamper(desk, (db) => db.prepare('UPDATE audit_log SET statement = ? WHERE seq = ?').run(original.statement.replace(named, proposal), original.seq));
    expect((await desk.value('radar/list', {})).alerts.find((alert) => alert.sender === patterns.similarEdges)?.status).toBe('clearing');
    expect(await preflightErrors('bnb.usdt', patterns.similarEdges)).toContain('was likely address poisoning');
    tamper(desk, (db) => db.prepare('UPDATE audit_log SET statement = ? WHERE seq = ?').run(original.statement, original.seq));

    const confirmed = await desk.value('radar/clear', { address: patterns.similarEdges, as: SECOND_ADMIN });
    expect(confirmed).toMatchObject({ status: 'cleared', clearedBy: [ADMIN.operator, SECOND_ADMIN.operator] });
    expect(await preflightErrors('bnb.usdt', patterns.similarEdges)).not.toContain('poisoning');
    expect(await preflightErrors('eth.usdt', patterns.sameEdges)).toContain('was likely address poisoning');
    const radar = await desk.value('radar/list', {});
    expect(radar.blocked).toBe(3);
    const row = (await desk.value('deposits/list', { limit: 50 })).rows.find((deposit) => deposit.fromAddress === patterns.similarEdges);
    expect(row?.poisoning).toMatchObject({ cleared: true });
  });
});

describe('a request approved before the dust arrived', () => {
  it('is held at send once the destination sent a deposit, naming the book entry: nothing reaches the service', async () => {
    const merchantId = desk.sandbox.credentials.merchantId;
    expect((await desk.admin('PATCH', `/merchants/${merchantId}`, { balances: { 'bnb.usdt': '5000' } })).status).toBe(200);
    await desk.value('sync/run', {});
    const target = `0x${evmLookAlike(book.sameEdges, 6, 6)}`;
    const { withdrawal } = await desk.value('withdrawals/request', { currency: 'bnb.usdt', amount: '25', toAddress: target, as: INITIATOR });
    await desk.value('withdrawals/approve', { id: withdrawal.id, as: APPROVER });
    await credit(evmDepositAddress, 'bnb.usdt', '1', target);
    await desk.value('sync/run', {});
    const sent = await desk.call('withdrawals/submit', { id: withdrawal.id, as: INITIATOR });
    expect(sent.ok).toBe(false);
    if (!sent.ok) expect(sent.error.message).toContain(`looks like book entry eth:0x${book.sameEdges} (the same first 6 and last 6 characters)`);
    await expectNoOrder(desk, withdrawal.userOrder);
  });
});

describe('the policy simulator and the approver (issue 20 parts 5 and 6)', () => {
  /** A request made before its destination's dust arrived, left waiting for approval. */
  const waitingTarget = `0x${evmLookAlike(book.sameEdges, 5, 5)}`;
  let waitingId = '';
  beforeAll(async () => {
    const { withdrawal } = await desk.value('withdrawals/request', { currency: 'bnb.usdt', amount: '20', toAddress: waitingTarget, as: INITIATOR });
    waitingId = withdrawal.id;
    await credit(evmDepositAddress, 'bnb.usdt', '1', waitingTarget);
    await desk.value('sync/run', {});
  });

  async function poisoningRule(toAddress: string): Promise<{ allowed: boolean; finding: { active: boolean; refuses: boolean; text: string } | undefined }> {
    const view = await desk.value('policies/test', { currency: 'bnb.usdt', amount: '25', toAddress });
    return { allowed: view.allowed, finding: view.findings.find((entry) => entry.rule === 'poisoning') };
  }

  it('policies/test names the poisoning rule for a flagged address in the preflight’s words, says who cleared a cleared one, and not for a clean one', async () => {
    const flagged = await poisoningRule(patterns.sameEdges);
    expect(flagged.allowed).toBe(false);
    expect(flagged.finding).toMatchObject({ active: true, refuses: true });
    const refusal = (await preflightErrors('bnb.usdt', patterns.sameEdges)).split('\n').find((message) => message.includes('poisoning'));
    expect(refusal).toBeDefined();
    expect(flagged.finding?.text).toBe(refusal);

    const cleared = await poisoningRule(patterns.similarEdges);
    expect(cleared.finding).toEqual({
      rule: 'poisoning',
      active: true,
      refuses: false,
      text: `flagged by the poisoning radar: looks like eth:0x${book.similarEdges} (the same first 3 and last 5 characters), cleared by ${ADMIN.operator} and ${SECOND_ADMIN.operator}`,
    });
    const clean = await poisoningRule(unrelated);
    expect(clean.finding).toMatchObject({ active: false, refuses: false });
    expect(clean.finding?.text).toContain('not flagged');
    expect(clean.allowed).toBe(true);
  });

  it('policies/preview shows a waiting request to a flagged address as held by the radar, under the policy in force and the draft alike', async () => {
    const preview = await desk.value('policies/preview', { currency: 'bnb.usdt', thresholds: [], dailyLimit: null, useFinancialConfirmation: false });
    const line = preview.waiting.find((entry) => entry.id === waitingId);
    expect(line).toBeDefined();
    for (const standing of [line?.now, line?.draft]) {
      expect(standing?.holds.some((hold) => hold.includes(`looks like book entry eth:0x${book.sameEdges} (the same first 5 and last 5 characters)`))).toBe(true);
    }
    expect(line?.changed).toBe(false);
  });

  it('the review shows the flag in the destination’s standing and the radar’s hold under "if sent now"; a clean destination shows neither', async () => {
    const review = await desk.value('withdrawals/review', { id: waitingId });
    expect(review.destination.poisoning).toEqual({ looksLike: `eth:0x${book.sameEdges}`, similarity: 'the same first 5 and last 5 characters', clearedBy: null });
    const lines = new Map(reviewLines(review, { locale: 'en-US', time: (ms: number) => new Date(ms).toISOString() }).map((entry) => [entry.item, entry]));
    expect(lines.get('standing')?.value).toContain(
      `flagged by the poisoning radar: looks like eth:0x${book.sameEdges} (the same first 5 and last 5 characters), not cleared: paying it is refused until two admins clear it`,
    );
    expect(lines.get('standing')?.warn).toBe(true);
    expect(lines.get('heldNow')?.value).toContain('was likely address poisoning');

    const { withdrawal } = await desk.value('withdrawals/request', { currency: 'bnb.usdt', amount: '20', toAddress: unrelated, as: INITIATOR });
    const clean = await desk.value('withdrawals/review', { id: withdrawal.id });
    expect(clean.destination.poisoning).toBeNull();
    expect(clean.holdsNow.join('\n')).not.toContain('poisoning');
  });
});

describe("the radar's signed flag: deleting the cached deposit clears nothing", () => {
  const sender = `0x${evmLookAlike(book.sameEdges, 6, 4)}`;

  it('still refuses the look-alike after its deposit rows are deleted, from the desk-signed flag, and says how to fetch the deposit again', async () => {
    await credit(evmDepositAddress, 'bnb.usdt', '1', sender);
    await desk.value('sync/run', {});
    expect(await preflightErrors('bnb.usdt', sender)).toContain('was likely address poisoning');

    // An attacker with the database file deletes the deposit (and so the evidence the radar derives its alert from).
    const deleted = tamper(desk, (db) => db.prepare('DELETE FROM deposits WHERE lower(from_address) = ?').run(sender).changes);
    expect(deleted).toBe(1);
    expect((await desk.value('deposits/list', { limit: 100 })).rows.some((row) => row.fromAddress.toLowerCase() === sender)).toBe(false);
    const refusal = await preflightErrors('bnb.usdt', sender);
    expect(refusal).toContain(`looks like book entry eth:0x${book.sameEdges} (the same first 6 and last 4 characters)`);
    expect(refusal).toMatch(/flagged it as likely address poisoning in signed audit row \d+ \(txid [^)]+\), but this workstation's deposits no longer hold that deposit/);
    expect(refusal).toContain('run "treasury-desk sync --full" to fetch the deposit again from the service');
    // The same address on the other chain of its format, in another letter case, is refused by the same flag.
    expect(await preflightErrors('eth.usdt', toEip55(sender.slice(2)))).toContain('but this workstation\'s deposits no longer hold that deposit');
    const requested = await desk.call('withdrawals/request', { currency: 'bnb.usdt', amount: '25', toAddress: sender, as: INITIATOR });
    expect(requested.ok).toBe(false);
    const review = await desk.value('policies/test', { currency: 'bnb.usdt', amount: '25', toAddress: sender });
    expect(review.findings.find((finding) => finding.rule === 'poisoning')).toMatchObject({ active: true, refuses: true });
  });

  it('takes no flag from a row whose signed text was edited: a forged flag neither refuses another address nor keeps its own', async () => {
    const victim = `0x${evmLookAlike(book.similarEdges, 6, 5)}`;
    const flagged = sender;
    const row = inspect(desk, (db) => db.prepare("SELECT seq, statement FROM audit_log WHERE action = 'deposits/poisoningSuspected' AND lower(subject) = ?").get(flagged) as { seq: number; statement: string });
    const forged = row.statement.split(flagged).join(victim);
    expect(forged).not.toBe(row.statement);
    tamper(desk, (db) => db.prepare('UPDATE audit_log SET statement = ?, subject = ? WHERE seq = ?').run(forged, victim, row.seq));
    try {
      expect(await preflightErrors('bnb.usdt', victim)).not.toContain('poisoning');
      expect(await preflightErrors('bnb.usdt', flagged)).not.toContain('signed audit row');
    } finally {
      tamper(desk, (db) => db.prepare('UPDATE audit_log SET statement = ?, subject = ? WHERE seq = ?').run(row.statement, flagged, row.seq));
    }
    expect(await preflightErrors('bnb.usdt', flagged)).toContain('signed audit row');
  });
});
