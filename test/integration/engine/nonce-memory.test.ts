// The desk's nonce memory outlives the process (issue 11, item 8; PROTOCOL §4.4): a genuine signed answer the desk
// has already accepted, replayed by a proxy on the path within the 600 s, is refused by a restarted engine on the same
// database and by a CLI run on it, not only by the process that first saw it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callMethod, type MethodName, type ResponseOf, type Result } from '../../../electron/contract';
import type { Engine } from '../../../electron/core/engine';
import { PATHS } from '../../../electron/protocol/profile';
import { runInProcess } from '../../support/cli';
import type { FaultProxy, WireAnswer } from './fixtures/fault-proxy';
import { openProxiedDesk, PROXIED_PROFILE, type ProxiedDesk } from './fixtures/proxied-desk';
import type { Desk } from './support';

let proxied: ProxiedDesk | undefined;
let desk: Desk;
let proxy: FaultProxy;

beforeAll(async () => {
  proxied = await openProxiedDesk('5000');
  ({ desk, proxy } = proxied);
});

afterAll(async () => {
  await proxied?.close();
});

async function call<M extends MethodName>(engine: Engine, method: M, request: unknown): Promise<Result<ResponseOf<M>>> {
  return callMethod(engine.handlers, method, request);
}

/** The merchantInfo answer of one sync, as the service sent it (and the desk accepted it). */
async function acceptedMerchantInfoAnswer(): Promise<WireAnswer> {
  proxy.captureAnswers = true;
  const before = proxy.eventsFor(PATHS.merchantInfo).length;
  try {
    await desk.value('sync/run', {});
  } finally {
    proxy.captureAnswers = false;
  }
  const answer = proxy.eventsFor(PATHS.merchantInfo)[before]?.answer;
  if (!answer) throw new Error('no merchantInfo answer was captured');
  return answer;
}

describe('a replayed answer the desk already accepted', () => {
  it('is refused by a restarted engine on the same database', async () => {
    const answer = await acceptedMerchantInfoAnswer();
    const restarted = await desk.reopen();
    proxy.replaceNextAnswer(PATHS.merchantInfo, answer, { forward: false });
    const result = await call(restarted, 'sync/run', {});
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toMatch(/already received once \(repeated nonce\)/);
    const status = await call(restarted, 'sync/status', {});
    if (!status.ok) throw new Error(status.error.message);
    expect(status.value.resources.find((resource) => resource.resource === 'balances')?.lastError).toMatch(/repeated nonce/);
    // The genuine traffic that follows is accepted.
    const again = await call(restarted, 'sync/run', {});
    expect(again.ok).toBe(true);
  });

  it('is refused by a CLI run on the same database', async () => {
    const answer = await acceptedMerchantInfoAnswer();
    proxy.replaceNextAnswer(PATHS.merchantInfo, answer, { forward: false });
    const run = await runInProcess(['--db', desk.dbPath, '--profile', PROXIED_PROFILE, 'sync'], { env: { TREASURY_DESK_KEYCHAIN_SERVICE: desk.vault.service } });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/already received once \(repeated nonce\)/);
    expect(proxy.eventsFor(PATHS.merchantInfo).at(-1)?.replacedAt).toBeDefined();
    // Nothing of the replay was stored: the balances are those of the genuine answers.
    expect((await desk.value('sync/run', {})).connection.online).toBe(true);
  });
});
