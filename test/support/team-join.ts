// Test and bench support: a workstation joins a team desk the way people do it, whatever wraps the engine's handlers:
// it confirms the genesis fingerprint the first workstation shows, the admin's device key made at the joiner is
// confirmed at the first workstation (which enrols the joiner), and each operator who acts at the joiner gets a device
// key there, confirmed at the first workstation with their own key.
import type { MethodName, ResponseOf } from '../../electron/contract';

export type Call = <M extends MethodName>(method: M, request: unknown) => Promise<ResponseOf<M>>;
export interface Operator {
  readonly operator: string;
  readonly passphrase: string;
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const started = performance.now();
  while (!(await check())) {
    if (performance.now() - started > timeoutMs) throw new Error(`${what}: not seen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function confirmAt(first: Call, proposal: string, as: Operator): Promise<void> {
  await until(`device key ${proposal.slice(0, 12)} at the first workstation`, async () => (await first('operators/list', {})).pendingDevices.some((device) => device.id === proposal));
  await first('operators/confirmDevice', { proposal, as });
}

/** Joins `joiner` as workstation `name` with `admin`, enrols it from `first`, and gives `operators` device keys there. */
export async function joinAndEnrol(joiner: Call, first: Call, name: string, database: string, admin: Operator, operators: readonly Operator[] = []): Promise<void> {
  const genesis = (await first('team/status', {})).genesis?.fingerprint;
  if (genesis === undefined) throw new Error('the first workstation shows no pinned genesis');
  await joiner('team/join', { database, workstation: name, as: admin, genesis });
  const mine = (await joiner('operators/list', {})).pendingDevices.find((device) => device.operator === admin.operator && device.workstation === name);
  if (mine) await confirmAt(first, mine.id, admin);
  await until(`workstation ${name} enrolled`, async () => (await joiner('team/status', {})).enrolment === null);
  for (const operator of operators) {
    if (operator.operator === admin.operator) continue;
    const proposed = await joiner('operators/addDevice', operator);
    await confirmAt(first, proposed.id, operator);
  }
  await until(`the device keys at ${name} in force`, async () => (await joiner('operators/list', {})).pendingDevices.length === 0);
}
