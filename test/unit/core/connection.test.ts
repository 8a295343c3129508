// Offline diagnosis: which failures say the service is unreachable, and why (network, whitelist, clock, credentials).
import { describe, expect, it } from 'vitest';
import { connectionSentence } from '../../../electron/contract';
import { ConnectionTracker, diagnoseFailure } from '../../../electron/core/connection/tracker';
import { InvalidArgumentError, NotWhitelistedError, ResponseVerificationError, ServiceError, TransportError } from '../../../electron/protocol';

describe('diagnoseFailure', () => {
  it('names the network for transport failures', () => {
    expect(diagnoseFailure(new TransportError('merchantInfo', false, 'connection refused'), null)?.reason).toBe('network');
  });
  it('tells an HTTP error answer as the service failing, not as the network: the service answered', () => {
    const diagnosis = diagnoseFailure(new TransportError('getDeposits', true, 'the service answered HTTP 503', 503), null);
    expect(diagnosis).toEqual({
      reason: 'service',
      message: expect.stringMatching(/^the service answered HTTP 503 to getDeposits: it is reachable but failing/),
      cause: { code: 'serviceFailing', httpStatus: 503, endpoint: 'getDeposits' },
    });
    expect(diagnosis?.message).not.toMatch(/network|cannot be reached/);
  });
  it('explains Oops as the IP whitelist', () => {
    const diagnosis = diagnoseFailure(new NotWhitelistedError('merchantInfo'), null);
    expect(diagnosis?.reason).toBe('notWhitelisted');
    expect(diagnosis?.message).toMatch(/whitelist/);
  });
  it('tells clock drift from bad credentials on signatureFailed by the measured drift', () => {
    const refused = new ServiceError('signatureFailed', 'merchantInfo', undefined, 200);
    expect(diagnoseFailure(refused, 900)).toMatchObject({ reason: 'clockDrift', message: expect.stringMatching(/900 s behind/) });
    expect(diagnoseFailure(refused, 3)?.reason).toBe('credentials');
    expect(diagnoseFailure(refused, null)?.reason).toBe('credentials');
  });
  it('reads a stale response timestamp as clock drift', () => {
    expect(diagnoseFailure(new ResponseVerificationError('staleTimestamp', 'merchantInfo', 'old'), null)?.reason).toBe('clockDrift');
  });
  it('treats authFailed and decryptFailed as credentials, business refusals as nothing', () => {
    expect(diagnoseFailure(new ServiceError('authFailed', 'getToken', undefined, 200), null)?.reason).toBe('credentials');
    expect(diagnoseFailure(new ServiceError('decryptFailed', 'merchantInfo', undefined, 200), null)?.reason).toBe('credentials');
    expect(diagnoseFailure(new ServiceError('insufficientBalance', 'createWithdrawOrder', undefined, 200), null)).toBeUndefined();
    expect(diagnoseFailure(new InvalidArgumentError('limit', 'out of range'), null)).toBeUndefined();
    expect(diagnoseFailure(new Error('plain'), null)).toBeUndefined();
  });
});

describe('the English the engine says, built by the contract from the cause it keeps', () => {
  it.each([
    [new TransportError('merchantInfo', false, 'connection refused'), null, 'network', 'the service cannot be reached: merchantInfo: connection refused. Check the network connection.'],
    [
      new TransportError('getDeposits', true, 'the service answered HTTP 503', 503),
      null,
      'service',
      'the service answered HTTP 503 to getDeposits: it is reachable but failing; the desk tries again at the next sync (ask the platform if it lasts)',
    ],
    [new NotWhitelistedError('getToken'), null, 'notWhitelisted', new NotWhitelistedError('getToken').message],
    [
      new ResponseVerificationError('staleTimestamp', 'merchantInfo', 'old'),
      null,
      'clockDrift',
      "this computer's clock seems to differ from the service's by more than 5 minutes: correct the system time (enable automatic time sync)",
    ],
    [
      new ResponseVerificationError('staleTimestamp', 'merchantInfo', 'old'),
      -450,
      'clockDrift',
      "this computer's clock is 450 s ahead of the service (the limit is 300 s): correct the system time (enable automatic time sync)",
    ],
    [
      new ResponseVerificationError('badSignature', 'merchantInfo', 'the signature does not verify'),
      null,
      'service',
      'a response from the service failed verification and was discarded: merchantInfo: the response was refused (badSignature): the signature does not verify',
    ],
    [
      new ServiceError('signatureFailed', 'merchantInfo', undefined, 200),
      null,
      'credentials',
      'the service refused our signature: check the merchant private key registered with the platform (and the system clock).',
    ],
    [new ServiceError('authFailed', 'getToken', undefined, 200), null, 'credentials', 'the service refused the merchant ID or secret (authFailed): re-enter the credentials.'],
    [new ServiceError('decryptFailed', 'getToken', undefined, 200), null, 'credentials', 'the service could not decrypt our requests: check the platform public key.'],
    [
      new ServiceError('apiVersionNotEnabled', 'merchantInfo', undefined, 200),
      null,
      'service',
      'the account is still on protocol version 1: pass selfcheck, then ask the platform staff to switch it to version 2.',
    ],
  ] as const)('%s', (error, drift, reason, message) => {
    const diagnosis = diagnoseFailure(error, drift);
    expect(diagnosis).toMatchObject({ reason, message });
    if (diagnosis?.cause === undefined) throw new Error('a diagnosis keeps its cause');
    expect(connectionSentence(diagnosis.cause)).toBe(message);
    // The tracker keeps both: the cause for a window, the English for the CLI.
    const tracker = new ConnectionTracker(() => 1);
    tracker.markOffline(diagnosis);
    expect(tracker.current).toMatchObject({ online: false, reason, cause: diagnosis.cause, message });
  });
});

describe('ConnectionTracker', () => {
  it('keeps the first moment of an offline reason and clears it when online', () => {
    let now = 1000;
    const tracker = new ConnectionTracker(() => now);
    expect(tracker.markOffline({ reason: 'network', message: 'down' })).toBe(true);
    now = 2000;
    expect(tracker.markOffline({ reason: 'network', message: 'down' })).toBe(false);
    expect(tracker.current).toMatchObject({ online: false, reason: 'network', since: 1000 });
    now = 3000;
    tracker.markOffline({ reason: 'notWhitelisted', message: 'Oops' });
    expect(tracker.current.since).toBe(3000);
    expect(tracker.markOnline()).toBe(true);
    expect(tracker.current).toMatchObject({ online: true, reason: null, since: null, lastContactAt: 3000 });
  });
});
