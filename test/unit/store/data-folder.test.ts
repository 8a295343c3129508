// One data folder for the app and the CLI: an app desk left in Electron's userData folder is moved once to the shared
// place, with its WAL files, headless desk key and demo sandbox; a desk already there is never overwritten.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { moveLegacyDesk } from '../../../electron/core/store/data-folder';
import { closeDatabase, openDatabase } from '../../../electron/core/store/database';
import { createProfile, getProfile } from '../../../electron/core/profiles/profiles-table';

let root: string;
let legacy: string;
let shared: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'td-data-folder-'));
  legacy = join(root, 'config', 'Treasury Desk');
  shared = join(root, 'share', 'treasury-desk', 'treasury.sqlite');
  mkdirSync(legacy, { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('moveLegacyDesk', () => {
  it('moves an app desk to the shared folder once, and the moved database opens with its data', () => {
    const db = openDatabase(join(legacy, 'treasury.sqlite'));
    createProfile(db, { name: 'main', baseUrl: 'https://127.0.0.1:1', merchantId: 'M1' });
    closeDatabase(db);
    writeFileSync(join(legacy, 'treasury.sqlite.desk-secrets'), '{"key":"x"}', { mode: 0o600 });
    mkdirSync(join(legacy, 'demo-sandbox'));
    writeFileSync(join(legacy, 'demo-sandbox', 'sandbox.sqlite'), 'demo');

    const move = moveLegacyDesk(legacy, shared);
    expect(move).toMatchObject({ moved: true, parts: ['treasury.sqlite', 'treasury.sqlite.desk-secrets', 'demo-sandbox'] });
    expect(existsSync(join(legacy, 'treasury.sqlite'))).toBe(false);
    expect(readFileSync(join(root, 'share', 'treasury-desk', 'demo-sandbox', 'sandbox.sqlite'), 'utf8')).toBe('demo');
    const moved = openDatabase(shared);
    expect(getProfile(moved, 'main')?.merchantId).toBe('M1');
    closeDatabase(moved);

    expect(moveLegacyDesk(legacy, shared)).toMatchObject({ moved: false, reason: 'noLegacyDesk' });
  });

  it('never overwrites a desk already in the shared folder (the CLI made one): both stay, the shared one is used', () => {
    writeFileSync(join(legacy, 'treasury.sqlite'), 'app desk');
    mkdirSync(join(root, 'share', 'treasury-desk'), { recursive: true });
    writeFileSync(shared, 'cli desk');
    expect(moveLegacyDesk(legacy, shared)).toMatchObject({ moved: false, reason: 'targetExists' });
    expect(readFileSync(shared, 'utf8')).toBe('cli desk');
    expect(readFileSync(join(legacy, 'treasury.sqlite'), 'utf8')).toBe('app desk');
  });

  it('does nothing when there is no app desk, or when both places are the same folder', () => {
    expect(moveLegacyDesk(legacy, shared)).toMatchObject({ moved: false, reason: 'noLegacyDesk' });
    writeFileSync(join(legacy, 'treasury.sqlite'), 'desk');
    expect(moveLegacyDesk(legacy, join(legacy, 'treasury.sqlite'))).toMatchObject({ moved: false, reason: 'sameFolder' });
    expect(existsSync(join(legacy, 'treasury.sqlite'))).toBe(true);
  });
});
