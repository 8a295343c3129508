// Migration 0180 (webhooks): a version 170 desk upgrades with its profiles intact; an event is queued once per
// endpoint (a second queueing finds it there) while a redelivery of it is a row of its own; deliveries and attempts
// go with their endpoint, and endpoints with their profile.
import { describe, expect, it } from 'vitest';
import { userVersion } from '../../../../electron/core/store/database';
import { MIGRATIONS } from '../../../../electron/core/store/migrations';
import { migration0180 } from '../../../../electron/core/store/migrations/0180-webhooks';
import { createProfile, deleteProfile } from '../../../../electron/core/profiles/profiles-table';
import {
  getWebhookEndpoint,
  insertWebhookDelivery,
  insertWebhookEndpoint,
  listWebhookAttempts,
  listWebhookDeliveries,
  recordWebhookAttempt,
} from '../../../../electron/core/webhooks/webhooks-table';
import { PROFILE, useTempDir } from '../helpers';
import { migrationsUpTo } from './helpers';

const temp = useTempDir();

describe('migration 0180-webhooks', () => {
  it('upgrades a version 170 database; an event is queued once per endpoint, a redelivery apart; all goes with its profile', () => {
    const old = temp.open('upgrade.sqlite', { migrations: migrationsUpTo(170) });
    createProfile(old, { name: PROFILE, baseUrl: 'https://pay.example', merchantId: 'M-1' }, 1_000);
    old.close();
    const db = temp.open('upgrade.sqlite', { migrations: migrationsUpTo(180) });
    expect(userVersion(db)).toBe(180);
    expect(MIGRATIONS.find((migration) => migration.version === 180)).toBe(migration0180);

    const endpoint = insertWebhookEndpoint(db, PROFILE, 'https://hooks.example/in', ['order.final'], 'alice', 2_000);
    expect(getWebhookEndpoint(db, endpoint)).toMatchObject({ profile: PROFILE, url: 'https://hooks.example/in', events: ['order.final'], enabled: true });
    const delivery = { endpoint, eventId: 'evt_1', type: 'order.final', body: '{"id":"evt_1"}', seal: 'ab'.repeat(32), redeliveryOf: null };
    const first = insertWebhookDelivery(db, delivery, 3_000);
    expect(first).not.toBeNull();
    expect(insertWebhookDelivery(db, delivery, 3_001)).toBeNull();
    const again = insertWebhookDelivery(db, { ...delivery, redeliveryOf: first }, 4_000);
    expect(again).not.toBeNull();
    recordWebhookAttempt(db, first ?? 0, { at: 3_500, status: 200, durationMs: 12, error: null, snippet: 'ok' });
    expect(listWebhookAttempts(db, first ?? 0)).toEqual([{ at: 3_500, status: 200, durationMs: 12, error: null, snippet: 'ok' }]);
    expect(listWebhookDeliveries(db, PROFILE, null, 10).map((row) => [row.id, row.redeliveryOf])).toEqual([
      [again, first],
      [first, null],
    ]);
    expect(() => recordWebhookAttempt(db, first ?? 0, { at: 1, status: null, durationMs: 1, error: null, snippet: 'x'.repeat(201) })).toThrow(/CHECK/);

    deleteProfile(db, PROFILE);
    expect(db.prepare('SELECT (SELECT count(*) FROM webhook_endpoints) + (SELECT count(*) FROM webhook_deliveries) + (SELECT count(*) FROM webhook_attempts)').pluck().get()).toBe(0);
  });
});
