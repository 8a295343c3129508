// Look-alike operator names (issue 23, item 8): `аlice` with a Cyrillic а was invited beside alice. Against the real
// engine and keychain: an invitation and a founding pair whose names share a UTS #39 skeleton with an operator's are
// refused naming that operator, and nothing is signed; a different name is invited as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, openDesk, SECOND_ADMIN, type Desk } from '../engine/support';
import { auditEntries, callOn } from './support';

let desk: Desk;

beforeAll(async () => {
  desk = await openDesk({ profile: false });
  await desk.value('profiles/importFile', { name: 'main', path: desk.sandbox.credentialsPath });
}, 60_000);
afterAll(async () => desk?.close());

describe('look-alike operator names', () => {
  it('a founding pair whose names look alike is refused', async () => {
    const refused = await callOn(desk.engine, 'operators/found', { admins: [ADMIN, { operator: 'a1ice', passphrase: SECOND_ADMIN.passphrase }] });
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalidInput', message: expect.stringContaining('the name a1ice looks like the operator alice') } });
    expect((await desk.value('operators/list', {})).founded).toBe(false);
  });

  it('an invitation of a name that looks like an operator’s is refused naming them; nothing is signed', async () => {
    await desk.value('operators/found', { admins: [ADMIN, SECOND_ADMIN] });
    const before = (await auditEntries(desk)).length;
    for (const [name, lookAlike] of [
      ['\u0430lice', 'alice'],
      ['fr\u0430nk', 'frank'],
      ['aIice', 'alice'],
    ] as const) {
      const refused = await callOn(desk.engine, 'operators/invite', { name, role: 'approver', as: ADMIN });
      expect(refused, name).toMatchObject({ ok: false, error: { code: 'invalidInput', message: expect.stringContaining(`looks like the operator ${lookAlike}`) } });
    }
    const cyrillic = await callOn(desk.engine, 'operators/invite', { name: '\u0430lice', role: 'approver', as: ADMIN });
    if (!cyrillic.ok) expect(cyrillic.error.message).toContain('U+0430 at position 1');
    expect((await auditEntries(desk)).length).toBe(before);
    expect(await desk.value('operators/invite', { name: 'alicia', role: 'approver', as: ADMIN })).toMatchObject({ code: expect.any(String) });
  });
});
