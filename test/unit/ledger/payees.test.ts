// The `payees` roster kind (issue 21 item 1) from rows signed in memory: a payee with addresses on three chains is added and approved once (an initiator proposes, an independent approver confirms), an address added later to it waits for its own approval, an unbook takes one address out of the book and so out of the payee; taken ids and names (any letter case or a Unicode look-alike, on replay), repeated or invalid addresses and a tampered row are refused, named; under a loosening delay the batch waits and a veto stops it.
import { describe, expect, it } from 'vitest';
import { refuseRow } from '../../../electron/core/ledger/registry';
import type { ChainRow } from '../../../electron/core/ledger/roster';
import { Chain, person } from '../../support/roster-chain';

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 10, 1);
const ETH = '0xa32fa9dc539dcb3469adc96e963ea1f0932a4bb0';
const TRX = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';
const SOL = '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T';
const TON = 'EQD4FPq-PRDieyQKkizFTRtSDyucUIqrj0v_zXJmqaDp6_0t';

const acme = { id: 'acme', name: 'ACME GmbH', note: 'supplier', addresses: [{ chain: 'eth', address: ETH }, { chain: 'trx', address: TRX }, { chain: 'solana', address: SOL }] };

function desk(): { chain: Chain; ivan: ReturnType<typeof person>; carol: ReturnType<typeof person>; alice: ReturnType<typeof person> } {
  const [alice, frank, ivan, carol] = [person('alice'), person('frank'), person('ivan'), person('carol')];
  const chain = new Chain();
  chain.found(alice, frank);
  chain.enrol(alice, ivan, 'initiator', frank);
  chain.enrol(alice, carol, 'approver', frank);
  return { chain, ivan, carol, alice };
}

const standingOf = (chain: Chain): Parameters<typeof refuseRow>[1] => ({ roster: () => chain.roster(), deskKey: () => undefined, initiator: () => undefined, legacy: () => ({ rows: 0, headHash: '' }), foundingRefusal: () => null, teamDesk: () => false, afterPin: false });

describe('payees', () => {
  it('adds a payee with addresses on three chains once approved; a later address waits for its own approval; an unbook takes one out', () => {
    const { chain, ivan, carol } = desk();
    const batch = chain.add(ivan, 'payees', 'payees', { payees: [acme] });
    let roster = chain.roster();
    expect(roster.problems).toEqual([]);
    expect(roster.payees()).toEqual([]);
    expect(roster.bookEntry('eth', ETH)).toBeUndefined();
    expect(roster.openProposals().map((proposal) => proposal.kind)).toEqual(['payees']);
    chain.confirm(ivan, batch.hash);
    expect(chain.roster().problems.at(-1)?.reason).toMatch(/ivan may not approve address-book additions/);
    chain.confirm(carol, batch.hash);
    roster = chain.roster();
    expect(roster.problems).toHaveLength(1);
    expect(roster.payees()).toMatchObject([{ id: 'acme', name: 'ACME GmbH', note: 'supplier', proposer: 'ivan', confirmedBy: 'carol' }]);
    expect(['eth', 'trx', 'solana'].map((c) => roster.bookEntry(c, c === 'eth' ? ETH.toUpperCase().replace('0X', '0x') : c === 'trx' ? TRX : SOL)?.payee)).toEqual(['acme', 'acme', 'acme']);

    const later = chain.add(ivan, 'book', `ton:${TON}`, { label: null, payee: 'acme' });
    roster = chain.roster();
    expect(roster.problems).toHaveLength(1);
    expect(roster.bookEntry('ton', TON)).toBeUndefined();
    chain.confirm(carol, later.hash);
    expect(chain.roster().bookEntry('ton', TON)).toMatchObject({ payee: 'acme', proposer: 'ivan', confirmedBy: 'carol' });

    chain.add(ivan, 'unbook', `trx:${TRX}`, {});
    roster = chain.roster();
    expect(roster.problems).toHaveLength(1);
    expect(roster.bookEntry('trx', TRX)).toBeUndefined();
    expect(roster.bookEntries().filter((entry) => entry.payee === 'acme').map((entry) => entry.chain).sort()).toEqual(['eth', 'solana', 'ton']);
  });

  it('refuses a taken id or name (any letter case), an address listed twice or already booked, an invalid address and an unknown payee, each named', () => {
    const { chain, ivan, carol } = desk();
    chain.confirm(carol, chain.add(ivan, 'payees', 'payees', { payees: [acme] }).hash);
    const reasonOf = (row: ChainRow): string | undefined => chain.roster().problems.find((problem) => problem.seq === row.seq)?.reason;
    const other = (over: Partial<typeof acme>): typeof acme => ({ id: 'bob', name: 'Bob', note: '', addresses: [{ chain: 'ton', address: TON }], ...over });
    expect(reasonOf(chain.add(ivan, 'payees', 'payees', { payees: [other({ id: 'acme' })] }))).toBe('payee id acme is already used');
    expect(reasonOf(chain.add(ivan, 'payees', 'payees', { payees: [other({ name: 'acme gmbh' })] }))).toBe('a payee is already named "ACME GmbH"');
    // Unicode look-alikes (UTS #39) are refused on replay, not only by the proposing handler: a row signed around the
    // handler (Cyrillic А, С, М, Е in "ACME") or a batch naming two look-alikes changes nothing.
    expect(reasonOf(chain.add(ivan, 'payees', 'payees', { payees: [other({ name: '\u0410\u0421\u041C\u0415 GmbH' })] }))).toBe('the payee name "\u0410\u0421\u041C\u0415 GmbH" looks like the payee "ACME GmbH" (Unicode look-alikes): choose a name nobody can mistake for it');
    expect(reasonOf(chain.add(ivan, 'payees', 'payees', { payees: [other({ name: 'Bob' }), other({ id: 'bob2', name: 'B\u03BFb', addresses: [{ chain: 'trx', address: 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU8' }] })] }))).toMatch(/^the payee name "B.b" looks like the payee "Bob"/);
    expect(chain.roster().payees().map((payee) => payee.name)).toEqual(['ACME GmbH']);
    expect(reasonOf(chain.add(ivan, 'payees', 'payees', { payees: [other({}), other({ id: 'bob2', name: 'Bob 2' })] }))).toBe(`ton:${TON} is listed twice`);
    expect(reasonOf(chain.add(ivan, 'payees', 'payees', { payees: [other({ addresses: [{ chain: 'bnb', address: ETH.toUpperCase().replace('0X', '0x') }] })] }))).toBeUndefined();
    expect(reasonOf(chain.add(ivan, 'payees', 'payees', { payees: [other({ id: 'eve', name: 'Eve', addresses: [{ chain: 'eth', address: ETH }] })] }))).toMatch(/^eth:0x.* is already in the address book/);
    expect(reasonOf(chain.add(ivan, 'payees', 'payees', { payees: [other({ id: 'zed', name: 'Zed', addresses: [{ chain: 'trx', address: 'Tnotanaddress' }] })] }))).toMatch(/^payee zed: Tnotanaddress is not a trx address/);
    expect(reasonOf(chain.add(ivan, 'book', `ton:${TON}`, { label: null, payee: 'nobody' }))).toBe('there is no payee nobody');
    // The registry judges the body before the roster: a payee without addresses is named.
    const empty = chain.add(ivan, 'payees', 'payees', { payees: [{ id: 'x', name: 'X', note: '', addresses: [] }] });
    expect(refuseRow(empty, standingOf(chain))).toMatch(/its body is not what payees statements hold/);
  });

  it('refuses a payees row whose signed text was changed (tampered) or that another key signed (forged), and applies nothing of either', () => {
    const { chain, ivan, carol } = desk();
    const MALLORY = '0x1111111111111111111111111111111111111111';
    const batch = chain.add(ivan, 'payees', 'payees', { payees: [acme] });
    const swap = (text: string): string => text.split(ETH).join(MALLORY);
    expect(swap(batch.text)).not.toBe(batch.text);
    const tampered: ChainRow = { ...batch, text: swap(batch.text), statement: { ...batch.statement, body: { payees: [{ ...acme, addresses: [{ chain: 'eth', address: MALLORY }, ...acme.addresses.slice(1)] }] } } };
    chain.rows[chain.rows.length - 1] = tampered;
    chain.confirm(carol, batch.hash);
    let roster = chain.roster();
    expect(roster.problems.find((problem) => problem.seq === batch.seq)?.reason).toMatch(/signature|not signed|does not verify/i);
    expect(roster.payees()).toEqual([]);
    expect(roster.bookEntry('eth', MALLORY)).toBeUndefined();

    const mallory = person('mallory');
    const forged = chain.add(ivan, 'payees', 'payees', { payees: [{ ...acme, id: 'acme2', name: 'ACME 2' }] }, { signWith: mallory.key.privateKey });
    roster = chain.roster();
    expect(roster.problems.find((problem) => problem.seq === forged.seq)?.reason).toMatch(/signature|not signed|does not verify/i);
    expect(roster.payees()).toEqual([]);
  });

  it('waits for the loosening delay like a book addition, and a veto during it leaves no payee and no address', () => {
    const [alice, bob] = [person('alice'), person('bob')];
    const chain = new Chain();
    chain.found(alice);
    chain.enrol(alice, bob, 'admin');
    chain.add(alice, 'governance', 'governance', { governance: { looseningDelayHours: 24, freezeLift: 'four-eyes', freezeLockHours: 0 } }, { at: T0 });
    const batch = chain.add(alice, 'payees', 'payees', { payees: [acme] }, { at: T0 + HOUR });
    let roster = chain.roster();
    expect(roster.payees(T0 + 2 * HOUR)).toEqual([]);
    expect(roster.bookEntry('eth', ETH, T0 + 2 * HOUR)).toBeUndefined();
    expect(roster.payee('acme', T0 + 26 * HOUR)).toMatchObject({ name: 'ACME GmbH', confirmedBy: null });
    expect(roster.bookEntry('solana', SOL, T0 + 26 * HOUR)?.payee).toBe('acme');
    chain.add(bob, 'veto', batch.hash, {}, { at: T0 + 2 * HOUR });
    roster = chain.roster();
    expect(roster.problems).toEqual([]);
    expect(roster.payees(T0 + 100 * HOUR)).toEqual([]);
    expect(roster.bookEntries(T0 + 100 * HOUR)).toEqual([]);
  });
});
