// Exactly once across workstations on a real PostgreSQL: A and D both hold the merchant credentials; for 50 approved
// requests both press Submit at the same moment. Each time exactly one gets the submission claim and the other is
// told who holds it; the sandbox ends with one order per request (counted in its own database), never a second one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Desk } from '../engine/support';
import { ADMIN, APPROVER, INITIATOR, tronAddress } from '../engine/support';
import { databaseUrl, emptyTeamDatabase, joinTeam, openFirstWorkstation, openWorkstation, sandboxOrders, within, type Workstation } from './desk-support';

const RACES = 50;

let desk: Desk;
let a: Workstation;
let d: Workstation;

beforeAll(async () => {
  await emptyTeamDatabase();
  const first = await openFirstWorkstation();
  desk = first.desk;
  a = first.a;
  await a.value('team/init', { database: databaseUrl(), workstation: 'A', as: ADMIN });
  d = await openWorkstation('D');
  await joinTeam(d, 'D', a, [INITIATOR]);
  // D gets the merchant credentials into its own keychain, for the profile the team desk already has.
  await d.value('profiles/importFile', { name: 'main', path: desk.sandbox.credentialsPath });
}, 120_000);

afterAll(async () => {
  await d?.close();
  await a?.close();
});

describe('two workstations submitting the same request at the same moment', () => {
  it(`creates exactly one order per request in ${RACES} races`, async () => {
    const before = sandboxOrders(desk).length;
    const userOrders: string[] = [];
    const refusals: string[] = [];
    const started = performance.now();
    for (let race = 0; race < RACES; race += 1) {
      const { withdrawal } = await a.value('withdrawals/request', { currency: 'trx.usdt', amount: '10', toAddress: tronAddress(), as: INITIATOR });
      await a.value('withdrawals/approve', { id: withdrawal.id, as: APPROVER });
      await within('the approval at D', 2000, async () => (await d.find(withdrawal.userOrder))?.state === 'approved');
      const atD = await d.find(withdrawal.userOrder);
      const [fromA, fromD] = await Promise.all([
        a.call('withdrawals/submit', { id: withdrawal.id, as: INITIATOR }),
        d.call('withdrawals/submit', { id: atD?.id, as: INITIATOR }),
      ]);
      const winners = [fromA, fromD].filter((answer) => answer.ok);
      const losers = [fromA, fromD].filter((answer) => !answer.ok);
      expect(winners.length, `race ${race}: ${JSON.stringify(losers)}`).toBeGreaterThanOrEqual(1);
      for (const loser of losers) {
        expect(loser.ok ? '' : loser.error.code).toBe('conflict');
        refusals.push(loser.ok ? '' : loser.error.message);
      }
      userOrders.push(withdrawal.userOrder);
    }
    const seconds = (performance.now() - started) / 1000;
    const orders = sandboxOrders(desk);
    const ours = orders.filter((order) => userOrders.includes(order.userOrder));
    console.log(`team races: ${RACES} races in ${seconds.toFixed(1)} s; ${refusals.length} refused with a named holder; ${ours.length} orders at the sandbox for ${RACES} requests`);
    expect(orders.length - before).toBe(RACES);
    expect(ours).toHaveLength(RACES);
    expect(ours.every((order) => order.count === 1)).toBe(true);
    expect(refusals.every((message) => /workstation [AD] is submitting|already submitted by workstation [AD]/.test(message))).toBe(true);
    // Both workstations end up seeing every request as submitted.
    for (const userOrder of userOrders) {
      await within(`${userOrder} submitted at A and D`, 2000, async () => (await a.find(userOrder))?.state === 'submitted' && (await d.find(userOrder))?.state === 'submitted');
    }
  }, 300_000);
});
