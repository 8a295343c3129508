// Several hosts in one team database URL, as libpq writes them (postgres://ROLE@HOST1:PORT1,HOST2:PORT2/DB?
// target_session_attrs=read-write): node-postgres 8.23 connects to one host only, so the store picks the host itself
// (the first that answers and, for read-write, says `SHOW transaction_read_only` = off) and picks again after a failure.
// Invariant: a URL with one host passes through unchanged; the password never appears in what this file throws.
import pg from 'pg';
import type { ClientBase, ClientConfig } from 'pg';

/** No listed host answers as the session asks (the store reports it as 'unreachable'). */
export class NoHostError extends Error {
  override readonly name = 'NoHostError';
}

/** Stands in for the host list while the WHATWG URL parser (which takes one host) reads or edits the URL. */
const HOSTS_PLACEHOLDER = 'treasury-desk-host-list.invalid';
const AUTHORITY = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/)((?:[^@/?#]*@)?)([^/?#]*)(.*)$/s;

export type SessionTarget = 'any' | 'read-write';

export interface HostList {
  /** One URL per host, in order, each a plain one-host URL without target_session_attrs. */
  readonly urls: readonly string[];
  readonly target: SessionTarget;
}

/**
 * Applies `edit` (read or change a URL) to a URL that may list several hosts: the list is swapped for a placeholder
 * host while the URL parser works, and put back in what `edit` returns. Throws what `new URL` throws.
 */
export function withHostList<R>(url: string, edit: (parsed: URL, restore: (text: string) => string) => R): R {
  const match = AUTHORITY.exec(url);
  const hosts = match?.[3] ?? '';
  if (match === null || !hosts.includes(',')) return edit(new URL(url), (text) => text);
  const parsed = new URL(`${match[1] ?? ''}${match[2] ?? ''}${HOSTS_PLACEHOLDER}${match[4] ?? ''}`);
  return edit(parsed, (text) => text.replace(HOSTS_PLACEHOLDER, hosts));
}

/** The hosts a URL lists and the session each must offer; refuses a target_session_attrs the desk cannot honour. */
export function hostList(url: string): HostList {
  return withHostList(url, (parsed, restore) => {
    const attrs = parsed.searchParams.get('target_session_attrs') ?? 'any';
    if (attrs !== 'any' && attrs !== 'read-write' && attrs !== 'primary') {
      throw new Error(`target_session_attrs=${attrs} is not supported: use read-write (or primary) to follow the writable server, or leave it out`);
    }
    parsed.searchParams.delete('target_session_attrs');
    const single = restore(parsed.toString());
    const match = AUTHORITY.exec(single);
    const hosts = (match?.[3] ?? '').split(',');
    // libpq: one port for all hosts, or one per host.
    const ports = hosts.map((host) => /:(\d+)$/.exec(host)?.[1]);
    const shared = ports.length > 1 && ports.slice(0, -1).every((port) => port === undefined) ? ports[ports.length - 1] : undefined;
    const urls = hosts.map((host) => {
      if (host === '') throw new Error('the host list has an empty entry; write HOST1:PORT1,HOST2:PORT2');
      const withPort = /:\d+$/.test(host) || shared === undefined ? host : `${host}:${shared}`;
      return `${match?.[1] ?? ''}${match?.[2] ?? ''}${withPort}${match?.[4] ?? ''}`;
    });
    return { urls, target: attrs === 'any' ? 'any' : 'read-write' };
  });
}

/** Whether a connected server gives the session the target asks for (read-write: not a standby, not read-only). */
export async function offersSession(client: ClientBase, target: SessionTarget): Promise<boolean> {
  if (target === 'any') return true;
  const answer = await client.query<{ transaction_read_only: string }>('SHOW transaction_read_only');
  return answer.rows[0]?.transaction_read_only === 'off';
}

/**
 * Picks the host to connect to: with one host, that host (no probe); with several, the first, starting from the last
 * good one, that connects and offers the session (a probe connection, closed at once). Throws NoHostError when none
 * does, naming the last reason.
 */
export class HostPicker {
  #current = 0;

  constructor(
    private readonly list: HostList,
    private readonly base: ClientConfig,
  ) {}

  get several(): boolean {
    return this.list.urls.length > 1;
  }

  async pick(): Promise<ClientConfig> {
    const { urls, target } = this.list;
    if (urls.length === 1) return { ...this.base, connectionString: urls[0] as string };
    let lastReason = 'no host answered';
    for (let step = 0; step < urls.length; step += 1) {
      const index = (this.#current + step) % urls.length;
      const config: ClientConfig = { ...this.base, connectionString: urls[index] as string };
      const probe = new pg.Client(config);
      probe.on('error', () => undefined);
      try {
        await probe.connect();
        if (await offersSession(probe, target)) {
          this.#current = index;
          return config;
        }
        lastReason = `host ${index + 1} accepts no writes (a standby, or read-only)`;
      } catch (error) {
        lastReason = `host ${index + 1}: ${describeProbeFailure(error)}`;
      } finally {
        await probe.end().catch(() => undefined);
      }
    }
    throw new NoHostError(
      `none of the ${urls.length} hosts in the team database URL answers as a ${target === 'read-write' ? 'writable server' : 'server'} (${lastReason}); ` +
        'when the primary is down, IT promotes a standby; this workstation tries again by itself',
    );
  }
}

function describeProbeFailure(error: unknown): string {
  const code = error !== null && typeof error === 'object' && 'code' in error ? String((error as { code: unknown }).code) : '';
  return code !== '' ? code : 'the connection failed';
}
