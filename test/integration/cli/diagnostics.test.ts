// `treasury-desk diagnostics --out FILE` against a real desk (sandbox, keychain): the file holds the versions, the desk
// and sync state and the end of the log, is private (0600) and carries no secret; --json answers path and size; a bad
// --out is bad usage (exit 2) and writes nothing; a desk that cannot be opened still gets a file (versions and log)
// with a warning; and the command works as a real process too.
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../support/cli';
import { expectFailure, expectOk, json, openCliDesk, setUpDesk, ADMIN, type CliDesk } from './support';

interface Diagnostics {
  readonly kind: string;
  readonly formatVersion: number;
  readonly app: { readonly version: string; readonly face: string };
  readonly runtime: Record<string, string | null>;
  readonly desk: { readonly profiles?: number; readonly schemaVersion?: number; readonly locked?: boolean; readonly unavailable?: string };
  readonly sync: { readonly resources?: unknown[]; readonly unavailable?: string };
  readonly log: { readonly folder: string; readonly files: Array<{ name: string }>; readonly tail: Array<Record<string, unknown>> };
}

let desk: CliDesk;
const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

beforeAll(async () => {
  desk = await openCliDesk();
  await setUpDesk(desk);
}, 120_000);

afterAll(async () => {
  await desk?.close();
});

describe('treasury-desk diagnostics', () => {
  it('writes the versions, the desk and sync state and the log, privately, and says so', async () => {
    const out = join(desk.dir, 'diagnostics.json');
    const run = expectOk(await desk.cli(['diagnostics', '--out', out]));
    expect(run.stdout).toBe(`wrote diagnostics to ${out} (${statSync(out).size} bytes): versions, desk and sync state, the end of the log; no secret\ncheck the file, then send it to your support contact\n`);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    const text = readFileSync(out, 'utf8');
    const document = JSON.parse(text) as Diagnostics;
    expect(document).toMatchObject({ kind: 'treasury-desk-diagnostics', formatVersion: 2, app: { version, face: 'cli' }, desk: { profiles: 1, locked: false } });
    expect(document.desk.schemaVersion).toBeGreaterThan(0);
    expect(document.runtime['node']).toBe(process.versions.node);
    expect(document.runtime['electron']).toBeNull();
    expect(document.sync.resources).toHaveLength(4);
    expect(document.log.folder).toBe('logs (in the data folder)');
    for (const passphrase of [ADMIN.passphrase]) expect(text).not.toContain(passphrase);
    expect(text).not.toContain(JSON.parse(readFileSync(desk.sandbox.credentialsPath, 'utf8')).secret as string);
  });

  it('includes what the log recorded (the engine logs the export itself)', async () => {
    const first = join(desk.dir, 'first.json');
    const second = join(desk.dir, 'second.json');
    expectOk(await desk.cli(['diagnostics', '--out', first]));
    expectOk(await desk.cli(['diagnostics', '--out', second]));
    const document = JSON.parse(readFileSync(second, 'utf8')) as Diagnostics;
    expect(document.log.files.map((file) => file.name)).toContain('treasury-desk.log');
    expect(document.log.tail.some((record) => record['msg'] === 'diagnostics: exported' && record['face'] === 'cli')).toBe(true);
  });

  it('answers path, size and whether the desk is in it with --json', async () => {
    const out = join(desk.dir, 'diagnostics-json.json');
    const answer = json<{ path: string; bytes: number; desk: boolean }>(expectOk(await desk.cli(['diagnostics', '--out', out, '--json'])));
    expect(answer).toEqual({ path: out, bytes: statSync(out).size, desk: true });
  });

  it('is bad usage without --out, or with a folder that does not exist, and writes nothing', async () => {
    expect(expectFailure(await desk.cli(['diagnostics']), 2)).toBe("treasury-desk: required option '--out <file>' not specified");
    const out = join(desk.dir, 'no-such-folder', 'd.json');
    expect(expectFailure(await desk.cli(['diagnostics', '--out', out]), 2)).toBe(`treasury-desk: invalidInput: could not write ${out}: the folder does not exist`);
    expect(existsSync(out)).toBe(false);
  });

  it('still writes versions and the log when the desk cannot be opened, with a warning', async () => {
    const broken = join(desk.dir, 'broken.sqlite');
    writeFileSync(broken, 'this is not a SQLite database, it is just text that is long enough to be read as a header');
    const out = join(desk.dir, 'without-desk.json');
    const run = await desk.cli(['--db', broken, 'diagnostics', '--out', out]);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^treasury-desk: warning: the desk could not be opened \(.+\); the diagnostics hold the versions and the log only\n$/);
    expect(run.stdout).toBe(`wrote diagnostics to ${out} (${statSync(out).size} bytes): versions, the end of the log; no secret\ncheck the file, then send it to your support contact\n`);
    const document = JSON.parse(readFileSync(out, 'utf8')) as Diagnostics;
    expect(document.desk.unavailable).toMatch(/cannot open the desk database/);
    expect(document.sync).toEqual({ unavailable: 'the desk is not open' });
    // The failure to open it is in that data folder's log, and so in the file.
    expect(document.log.tail.some((record) => record['msg'] === 'cli: the desk database could not be opened')).toBe(true);
  });

  it('works as a real process', async () => {
    const out = join(desk.dir, 'spawned.json');
    const run = await desk.spawn(['diagnostics', '--out', out, '--json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ path: out, bytes: statSync(out).size, desk: true });
    expect((JSON.parse(readFileSync(out, 'utf8')) as Diagnostics).app.version).toBe(version);
  });
});
