// The one owner of the update state machine (idle -> checking -> available -> downloading -> ready), testable without
// Electron. Invariant: nothing is trusted or downloaded before the release metadata's Ed25519 signature verifies under
// the pinned release key; a release that is not newer is refused; a file is kept only when its sha512 and size match
// the signed metadata; every read is bounded in size and time; a failure leaves the state and the folder as they were.
import { createHash, createPublicKey, verify, type KeyObject } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { compareReleaseVersions, parseReleaseVersion } from './release-version';

/**
 * The release key pinned in the app (Ed25519, SPKI PEM). Releases are signed with its private key by
 * scripts/sign-release.mjs, which the release engineer keeps offline (docs/desktop.md, "Signed updates").
 */
export const RELEASE_PUBLIC_KEY_PEM = `-----BEGIN PUBLIC KEY-----
MCowBQYDK2VwAyEAuuzeeOLps2dDD73UFtLhcZIWGNhdBEkQC7E7Amw2bFg=
-----END PUBLIC KEY-----
`;

/** The signature's file beside the metadata: base64 of the 64-byte Ed25519 signature over the metadata's exact bytes. */
export const SIGNATURE_SUFFIX = '.sig';

export interface ReleaseLimits {
  /** The most bytes read of the metadata or its signature. */
  readonly metadataBytes: number;
  /** The most bytes read of a release file (the signed size is also enforced). */
  readonly downloadBytes: number;
  /** How long a check (metadata and signature together) may take. */
  readonly checkTimeoutMs: number;
  /** How long a download may take. */
  readonly downloadTimeoutMs: number;
}

export const DEFAULT_RELEASE_LIMITS: ReleaseLimits = {
  metadataBytes: 64 * 1024,
  downloadBytes: 512 * 1024 * 1024,
  checkTimeoutMs: 15_000,
  downloadTimeoutMs: 15 * 60_000,
};

export interface ReleaseCheckOptions {
  /** The folder holding latest-linux.yml and the release files: https, or http on loopback (tests, a local mirror). */
  readonly feedUrl: string;
  /** The metadata's file name for this platform (latest-linux.yml, latest.yml, latest-mac.yml). */
  readonly metadataFile: string;
  /** The running app's version (app.getVersion()). */
  readonly currentVersion: string;
  /** Where a verified release file is kept until it is installed (created 0700). */
  readonly downloadFolder: string;
  /** The pinned release key (tests inject one they generate); default RELEASE_PUBLIC_KEY_PEM. */
  readonly releaseKey?: KeyObject;
  readonly limits?: Partial<ReleaseLimits>;
}

/** A release the signed metadata announces (the fields this desk relies on). */
export interface SignedRelease {
  readonly version: string;
  /** Release notes as plain text (the window escapes them). */
  readonly notes: string;
  /** The file's name in the feed folder. */
  readonly file: string;
  /** base64 sha512 of the file, from the signed metadata. */
  readonly sha512: string;
  readonly size: number;
}

export type UpdateState =
  | { readonly phase: 'idle' }
  | { readonly phase: 'checking' }
  | { readonly phase: 'available'; readonly release: SignedRelease }
  | { readonly phase: 'downloading'; readonly release: SignedRelease; readonly receivedBytes: number }
  | { readonly phase: 'ready'; readonly release: SignedRelease; readonly path: string };

export interface UpdateStatus {
  readonly state: UpdateState;
  /** What the last check or download said went wrong (with what to do), or null. */
  readonly lastError: string | null;
  /** The last check found no newer release (the version it saw), or null. */
  readonly upToDate: string | null;
}

/** Whether a ready update may be installed now: never while this workstation is sending a withdrawal. */
export type ApplyDecision = { readonly allowed: true; readonly release: SignedRelease } | { readonly allowed: false; readonly reason: string };

/** Why a check or download failed; the message says what to do. */
export class UpdateError extends Error {
  override readonly name = 'UpdateError';
}

const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,199}$/;
const SHA512_BASE64 = /^[A-Za-z0-9+/]{86}==$/;

const fileEntry = z.object({ url: z.string(), sha512: z.string().regex(SHA512_BASE64), size: z.number().int().positive().optional() });
/** electron-builder's generic-provider metadata (latest-linux.yml); unknown keys are ignored, as electron-updater does. */
const metadataSchema = z.object({
  version: z.string().min(1).max(64),
  files: z.array(fileEntry).min(1).max(50),
  path: z.string().optional(),
  sha512: z.string().optional(),
  releaseDate: z.string().optional(),
  releaseNotes: z.union([z.string(), z.array(z.object({ version: z.string().optional(), note: z.string().nullable().optional() }))]).nullable().optional(),
});

function feedBase(feedUrl: string): URL {
  let url: URL;
  try {
    url = new URL(feedUrl.endsWith('/') ? feedUrl : `${feedUrl}/`);
  } catch {
    throw new UpdateError(`the update feed "${feedUrl}" is not a URL: set the release folder's https address`);
  }
  const loopback = url.hostname === '127.0.0.1' || url.hostname === '[::1]' || url.hostname === 'localhost';
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    throw new UpdateError(`the update feed must be https (or http on this machine's loopback), not ${url.protocol}: set an https address`);
  }
  if (url.username !== '' || url.password !== '') throw new UpdateError('the update feed must not carry a user or password in its address');
  return url;
}

/** Reads a response body, refusing more than `limit` bytes (the abort signal bounds the time). */
async function readBounded(response: Response, limit: number, what: string, onBytes?: (received: number) => void): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length') ?? 'NaN');
  if (Number.isFinite(declared) && declared > limit) throw new UpdateError(`${what} is larger than ${limit} bytes: the feed is not a Treasury Desk release folder`);
  if (response.body === null) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let received = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > limit) {
      await reader.cancel().catch(() => undefined);
      throw new UpdateError(`${what} is larger than ${limit} bytes: the feed is not a Treasury Desk release folder`);
    }
    chunks.push(Buffer.from(value));
    onBytes?.(received);
  }
  return Buffer.concat(chunks);
}

function describeFailure(error: unknown, what: string, timeoutMs: number): UpdateError {
  if (error instanceof UpdateError) return error;
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return new UpdateError(`${what} did not finish within ${timeoutMs < 1000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1000)} s`}: the update server is not answering; check the network and try again later`);
  }
  const reason = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
  return new UpdateError(`${what} failed (${reason.slice(0, 200)}): check the network and the update feed's address, then try again`);
}

async function fetchBounded(url: URL, limit: number, what: string, signal: AbortSignal, onBytes?: (received: number) => void): Promise<Buffer> {
  const response = await fetch(url, { signal, redirect: 'error', headers: { 'cache-control': 'no-cache' } });
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw new UpdateError(`${what} answered HTTP ${response.status}: check the update feed's address, or try again later`);
  }
  return readBounded(response, limit, what, onBytes);
}

/** Verifies the signature over the exact metadata bytes, then parses them; throws UpdateError saying why not. */
export function verifySignedMetadata(metadata: Buffer, signatureText: Buffer, releaseKey: KeyObject): SignedRelease {
  const signature = Buffer.from(signatureText.toString('ascii').trim(), 'base64');
  if (signature.length !== 64 || !verify(null, metadata, releaseKey, signature)) {
    throw new UpdateError('the release metadata is not signed by the Treasury Desk release key: nothing was downloaded; report this to your administrator');
  }
  let parsed: z.infer<typeof metadataSchema>;
  try {
    parsed = metadataSchema.parse(parseYaml(metadata.toString('utf8')));
  } catch {
    throw new UpdateError('the signed release metadata is not in the expected form (latest-*.yml): report this to the release engineer');
  }
  const version = parseReleaseVersion(parsed.version);
  if (version === null) throw new UpdateError(`the signed release metadata names version "${parsed.version.slice(0, 64)}", which is not x.y.z: report this to the release engineer`);
  const chosen = parsed.files.find((entry) => parsed.path === undefined || entry.url === parsed.path) ?? parsed.files[0];
  if (chosen === undefined || !FILE_NAME.test(chosen.url) || basename(chosen.url) !== chosen.url) {
    throw new UpdateError('the signed release metadata names a file outside the release folder: report this to the release engineer');
  }
  if (chosen.size === undefined) throw new UpdateError('the signed release metadata gives no size for the release file: report this to the release engineer');
  const notes = typeof parsed.releaseNotes === 'string' ? parsed.releaseNotes : (parsed.releaseNotes ?? []).map((entry) => entry.note ?? '').join('\n');
  return { version: parsed.version, notes: notes.slice(0, 20_000), file: chosen.url, sha512: chosen.sha512, size: chosen.size };
}

/** The update state machine for one feed; main wires it to electron-updater and the window. */
export class ReleaseUpdates {
  readonly #base: URL;
  readonly #options: ReleaseCheckOptions;
  readonly #limits: ReleaseLimits;
  readonly #key: KeyObject;
  readonly #listeners = new Set<(status: UpdateStatus) => void>();
  #status: UpdateStatus = { state: { phase: 'idle' }, lastError: null, upToDate: null };

  constructor(options: ReleaseCheckOptions) {
    if (parseReleaseVersion(options.currentVersion) === null) throw new UpdateError(`this app's version "${options.currentVersion}" is not x.y.z: updates cannot be compared`);
    this.#base = feedBase(options.feedUrl);
    this.#options = options;
    this.#limits = { ...DEFAULT_RELEASE_LIMITS, ...options.limits };
    this.#key = options.releaseKey ?? createPublicKey(RELEASE_PUBLIC_KEY_PEM);
  }

  status(): UpdateStatus {
    return this.#status;
  }

  /** Listens to every change of status; returns the unsubscribe function. */
  onChange(listener: (status: UpdateStatus) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #set(status: UpdateStatus): void {
    this.#status = status;
    for (const listener of this.#listeners) listener(status);
  }

  /** Fetches and verifies the signed metadata; `available` only for a newer version. A failure changes nothing but lastError. */
  async check(): Promise<UpdateStatus> {
    const before = this.#status.state;
    if (before.phase === 'checking' || before.phase === 'downloading') return this.#status;
    this.#set({ ...this.#status, state: { phase: 'checking' } });
    try {
      const signal = AbortSignal.timeout(this.#limits.checkTimeoutMs);
      const what = 'the update check';
      const metadataUrl = new URL(this.#options.metadataFile, this.#base);
      const [metadata, signature] = await Promise.all([
        fetchBounded(metadataUrl, this.#limits.metadataBytes, what, signal),
        fetchBounded(new URL(`${this.#options.metadataFile}${SIGNATURE_SUFFIX}`, this.#base), 1024, what, signal),
      ]).catch((error: unknown) => {
        throw describeFailure(error, what, this.#limits.checkTimeoutMs);
      });
      const release = verifySignedMetadata(metadata, signature, this.#key);
      if (release.size > this.#limits.downloadBytes) throw new UpdateError(`version ${release.version} is larger than ${this.#limits.downloadBytes} bytes: report this to the release engineer`);
      const order = compareReleaseVersions(release.version, this.#options.currentVersion);
      if (order <= 0) {
        const why = order === 0 ? 'is the version running' : `is older than the version running (${this.#options.currentVersion}): a downgrade is refused`;
        this.#set({ state: before, lastError: order === 0 ? null : `the feed offers version ${release.version}, which ${why}`, upToDate: release.version });
        return this.#status;
      }
      const keep = before.phase === 'ready' && before.release.version === release.version && before.release.sha512 === release.sha512;
      this.#set({ state: keep ? before : { phase: 'available', release }, lastError: null, upToDate: null });
    } catch (error) {
      this.#set({ ...this.#status, state: before, lastError: describeFailure(error, 'the update check', this.#limits.checkTimeoutMs).message });
    }
    return this.#status;
  }

  /** Downloads the available release and keeps it only when its sha512 and size match the signed metadata. */
  async download(): Promise<UpdateStatus> {
    const before = this.#status.state;
    if (before.phase !== 'available') {
      this.#set({ ...this.#status, lastError: before.phase === 'ready' ? null : 'no verified update to download: check for updates first' });
      return this.#status;
    }
    const release = before.release;
    mkdirSync(this.#options.downloadFolder, { recursive: true, mode: 0o700 });
    const partial = join(this.#options.downloadFolder, `${release.file}.partial`);
    this.#set({ ...this.#status, state: { phase: 'downloading', release, receivedBytes: 0 } });
    try {
      const what = `the download of version ${release.version}`;
      const signal = AbortSignal.timeout(this.#limits.downloadTimeoutMs);
      const limit = Math.min(release.size, this.#limits.downloadBytes);
      const body = await fetchBounded(new URL(release.file, this.#base), limit, what, signal, (receivedBytes) => {
        this.#status = { ...this.#status, state: { phase: 'downloading', release, receivedBytes } };
      }).catch((error: unknown) => {
        throw describeFailure(error, what, this.#limits.downloadTimeoutMs);
      });
      const digest = createHash('sha512').update(body).digest('base64');
      if (body.length !== release.size || digest !== release.sha512) {
        throw new UpdateError(
          `the downloaded file of version ${release.version} does not match the signed release (${body.length} of ${release.size} bytes, sha512 ${digest === release.sha512 ? 'equal' : 'different'}): it was discarded; try again later`,
        );
      }
      writeFileSync(partial, body, { mode: 0o600 });
      const path = join(this.#options.downloadFolder, release.file);
      renameSync(partial, path);
      this.#set({ state: { phase: 'ready', release, path }, lastError: null, upToDate: null });
    } catch (error) {
      rmSync(partial, { force: true });
      this.#set({ ...this.#status, state: before, lastError: describeFailure(error, 'the download', this.#limits.downloadTimeoutMs).message });
    }
    return this.#status;
  }

  /** Whether the ready update may be installed now (the operator asked; no send is in flight on this workstation). */
  decideApply(sendInFlight: boolean): ApplyDecision {
    const state = this.#status.state;
    if (state.phase !== 'ready') return { allowed: false, reason: 'no verified update is ready to install: check for updates first' };
    if (sendInFlight) return { allowed: false, reason: `version ${state.release.version} waits: a withdrawal is being sent from this workstation; restart when it has been sent` };
    return { allowed: true, release: state.release };
  }
}
