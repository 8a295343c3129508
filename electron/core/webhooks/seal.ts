// The seals on the webhook rows: HMACs, under a key kept only in the desk's secret store and this process's memory,
// over each endpoint as added (id, profile, url, events) and each queued delivery (endpoint id and url, event id, body).
// Nothing is queued for an endpoint whose seal does not hold and the sender refuses a delivery whose seal does not, so
// a row edited in the hostile SQLite file (a forged deposit.credited, an endpoint's url pointed elsewhere) is never
// sent signed with the endpoint's secret.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { DeskSecretStore } from '../secrets';
import { registerSecret } from '../log';

/** Where desk `deskId`'s sealing key is kept in the desk's secret store (one keychain service may serve several databases). */
export function webhookSealName(deskId: string): string {
  return `webhook-queue-seal/${deskId}`;
}

export interface SealedParts {
  readonly endpointId: number;
  readonly url: string;
  readonly eventId: string;
  readonly body: string;
}

export interface SealedEndpoint {
  readonly id: number;
  readonly profile: string;
  readonly url: string;
  readonly events: readonly string[];
}

function sameHex(given: string, expected: string): boolean {
  const a = Buffer.from(given, 'hex');
  const b = Buffer.from(expected, 'hex');
  return a.length === b.length && a.length > 0 && timingSafeEqual(a, b);
}

export class WebhookSeal {
  readonly #key: Buffer;
  private constructor(key: Buffer) {
    this.#key = key;
  }

  /** The desk's sealing key, made (and stored) on first use. */
  static async load(store: DeskSecretStore, deskId: string): Promise<WebhookSeal> {
    const stored = await store.read(webhookSealName(deskId));
    let key = stored === null ? null : Buffer.from(stored, 'base64');
    if (key === null || key.length !== 32) {
      key = randomBytes(32);
      await store.write(webhookSealName(deskId), key.toString('base64'));
    }
    registerSecret(key.toString('base64'), 'secretField');
    return new WebhookSeal(key);
  }

  of(parts: SealedParts): string {
    return createHmac('sha256', this.#key).update(JSON.stringify([parts.endpointId, parts.url, parts.eventId, parts.body])).digest('hex');
  }

  holds(parts: SealedParts, seal: string): boolean {
    return sameHex(seal, this.of(parts));
  }

  /** The seal of an endpoint row as added: its id, profile, url and events. */
  ofEndpoint(endpoint: SealedEndpoint): string {
    return createHmac('sha256', this.#key).update(JSON.stringify(['endpoint', endpoint.id, endpoint.profile, endpoint.url, endpoint.events])).digest('hex');
  }

  endpointHolds(endpoint: SealedEndpoint & { readonly seal: string }): boolean {
    return sameHex(endpoint.seal, this.ofEndpoint(endpoint));
  }
}
