// retryKeychainCall: a keychain call is tried again only after D-Bus NoReply ("Did not receive a reply") or a session
// the restarted daemon does not know, with the configured waits, telling the caller first (to drop its connection);
// any other failure, or the last retryable one, reaches the caller unchanged.
import { describe, expect, it } from 'vitest';
import { isLostSessionError, isNoReplyError, retryKeychainCall } from '../../../electron/core/secrets/no-reply-retry';

const NO_REPLY = new Error('Platform failure: DBus error: Did not receive a reply. Possible causes include: the remote application did not send a reply');

function failingTimes(times: number, error: Error, value = 'ok') {
  let calls = 0;
  return {
    get calls() {
      return calls;
    },
    run: async () => {
      calls += 1;
      if (calls <= times) throw error;
      return value;
    },
  };
}

describe('retryKeychainCall', () => {
  it('retries after NoReply with the configured waits and returns the answer', async () => {
    const slept: number[] = [];
    const call = failingTimes(2, NO_REPLY);
    await expect(retryKeychainCall(call.run, { delaysMs: [10, 20, 30], sleep: async (ms) => void slept.push(ms) })).resolves.toBe('ok');
    expect(call.calls).toBe(3);
    expect(slept).toEqual([10, 20]);
  });

  it('gives up after the last wait with the NoReply error itself', async () => {
    const slept: number[] = [];
    const call = failingTimes(9, NO_REPLY);
    await expect(retryKeychainCall(call.run, { delaysMs: [1, 2], sleep: async (ms) => void slept.push(ms) })).rejects.toBe(NO_REPLY);
    expect(call.calls).toBe(3);
    expect(slept).toEqual([1, 2]);
  });

  it('does not retry a refusal (a locked keyring, a missing service)', async () => {
    const refused = new Error('Platform failure: DBus error: The name org.freedesktop.secrets was not provided by any .service files');
    const call = failingTimes(1, refused);
    await expect(retryKeychainCall(call.run, { delaysMs: [1], sleep: async () => undefined })).rejects.toBe(refused);
    expect(call.calls).toBe(1);
  });

  it('retries a session the restarted daemon does not know, telling the caller before each retry', async () => {
    const lost = new Error('Platform failure: DBus error: The session does not exist');
    const call = failingTimes(1, lost);
    const dropped: unknown[] = [];
    await expect(retryKeychainCall(call.run, { delaysMs: [1, 2], sleep: async () => undefined, onRetry: (error) => void dropped.push(error) })).resolves.toBe('ok');
    expect(call.calls).toBe(2);
    expect(dropped).toEqual([lost]);
    expect(isLostSessionError(lost)).toBe(true);
    expect(isLostSessionError(new Error('org.freedesktop.Secret.Error.NoSession: gone'))).toBe(true);
    expect(isLostSessionError(NO_REPLY)).toBe(false);
    expect(isLostSessionError(new Error('Collection is locked'))).toBe(false);
  });

  it('recognises libdbus text and the error name, nothing else', () => {
    expect(isNoReplyError(NO_REPLY)).toBe(true);
    expect(isNoReplyError(new Error('org.freedesktop.DBus.Error.NoReply: timeout'))).toBe(true);
    // The daemon stopped while the call waited (seen in CI while scripts/with-keyring.sh restarted it).
    expect(isNoReplyError(new Error('Platform failure: DBus error: Message recipient disconnected from message bus without replying'))).toBe(true);
    expect(isNoReplyError(new Error('Platform failure: DBus error: The name org.freedesktop.secrets was not provided by any .service files'))).toBe(false);
    expect(isNoReplyError(new Error('Collection is locked'))).toBe(false);
    expect(isNoReplyError('Did not receive a reply')).toBe(true);
  });
});
