// Retries a keychain call when the Secret Service did not answer within D-Bus's reply timeout (a busy machine), or
// answered for a daemon started again since the call's connection opened its session, so a slow or restarted keyring
// daemon is a pause rather than "the keychain is not available". Every other failure is final at once.
//
// Why it is safe: the four calls are idempotent. A get or a find reads; a set that timed out but was applied is set
// again to the same value; a delete that timed out but was applied answers "nothing to delete" the second time (the
// entry is gone either way). Why it is needed: @napi-rs/keyring reaches the Secret Service through
// dbus-secret-service, whose proxies wait 2 s for each reply; gnome-keyring rewrites its whole keyring file on each
// write, and on a loaded 2-core machine one write took longer (seen once in CI: "DBus error: Did not receive a reply").
// libdbus gives the same error (NoReply) another text when the daemon stops while a call waits: gnome-keyring 4x/50
// can abort when many clients open sessions at once, and D-Bus activation (on a desktop, and in
// scripts/with-keyring.sh) starts it again (seen in CI: "Message recipient disconnected from message bus without
// replying"). The daemon started again knows none of the sessions opened with the one that died: a connection kept
// from before answers "The session does not exist" (seen in CI), and the caller must drop it (`onRetry`) so that the
// next try opens a new connection and session.

/**
 * libdbus's texts for DBUS_ERROR_NO_REPLY (timed out, or the daemon went away while answering) and the error's own
 * name: the call got no answer, and the service may be alive again by the next try.
 */
const NO_REPLY_PATTERN = /Did not receive a reply|Message recipient disconnected from message bus without replying|org\.freedesktop\.DBus\.Error\.NoReply/;

/** gnome-keyring's text and the Secret Service's error name for a session the (restarted) daemon does not know. */
const LOST_SESSION_PATTERN = /The session does not exist|org\.freedesktop\.Secret\.Error\.NoSession/;

export interface KeychainRetryOptions {
  /** Waits before each retry, in ms; their count is the number of retries. Default: 250, 1000, 2500 (3 retries). */
  readonly delaysMs?: readonly number[];
  /** Waits (tests pass one that records the delays). Default: a timer. */
  readonly sleep?: (ms: number) => Promise<void>;
  /** Called with the error before each retry: the caller drops a connection the restarted daemon no longer knows. */
  readonly onRetry?: (error: unknown) => void;
}

const DEFAULT_DELAYS_MS = [250, 1000, 2500] as const;

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** True when `error` says the Secret Service did not answer in time (D-Bus NoReply), not that it refused. */
export function isNoReplyError(error: unknown): boolean {
  return NO_REPLY_PATTERN.test(messageOf(error));
}

/** True when `error` says the Secret Service does not know the call's session: its daemon was started again. */
export function isLostSessionError(error: unknown): boolean {
  return LOST_SESSION_PATTERN.test(messageOf(error));
}

/** Runs `call`, and runs it again after a D-Bus NoReply or a lost session, up to the configured number of times. */
export async function retryKeychainCall<T>(call: () => Promise<T>, options: KeychainRetryOptions = {}): Promise<T> {
  const delays = options.delaysMs ?? DEFAULT_DELAYS_MS;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  for (let retry = 0; ; retry += 1) {
    try {
      return await call();
    } catch (error) {
      const delay = delays[retry];
      if (delay === undefined || !(isNoReplyError(error) || isLostSessionError(error))) throw error;
      options.onRetry?.(error);
      await sleep(delay);
    }
  }
}
