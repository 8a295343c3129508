// `treasury-desk team …` in process, on a real PostgreSQL: status on a solo desk, init without a database (bad usage,
// exit 2), init with TREASURY_DESK_DATABASE_URL standing in for --database, status and verify afterwards; the
// password is printed nowhere; a second desk joins only with the genesis fingerprint confirmed (--genesis).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, as, expectFailure, expectOk, json, openCliDesk, setUpDesk, type CliDesk } from '../cli/support';
import { databaseUrl, emptyTeamDatabase } from './desk-support';

let desk: CliDesk;

beforeAll(async () => {
  await emptyTeamDatabase();
  desk = await openCliDesk();
  await setUpDesk(desk);
}, 60_000);
afterAll(async () => desk?.close());

describe('treasury-desk team', () => {
  it('says a solo desk is not a team desk, and refuses init without a database', async () => {
    expect(expectOk(await desk.cli(['team', 'status'])).stdout).toContain('this desk is not a team desk');
    const usage = expectFailure(await desk.cli(['team', 'init', '--workstation', 'A', '--as', ADMIN.name], { ...as(ADMIN), env: { ...as(ADMIN).env, TREASURY_DESK_DATABASE_URL: '' } }), 2);
    expect(usage).toContain('--database');
  });

  it('moves the desk into the team database named by TREASURY_DESK_DATABASE_URL, then reports and verifies it', async () => {
    const password = decodeURIComponent(new URL(databaseUrl()).password);
    const env = { ...as(ADMIN).env, TREASURY_DESK_DATABASE_URL: databaseUrl() };
    const init = expectOk(await desk.cli(['team', 'init', '--workstation', 'front-office', '--as', ADMIN.name], { env }));
    expect(init.stdout).toMatch(/connected since .* UTC/);
    expect(init.stdout + init.stderr).not.toContain(password);
    const status = json<{ enabled: boolean; connected: boolean; reason: string | null; database: string; workstation: string; verifiedSeq: number }>(expectOk(await desk.cli(['team', 'status', '--json'])));
    expect(status).toMatchObject({ enabled: true, connected: true, reason: null, workstation: 'front-office' });
    expect(status.database).not.toContain(password);
    expect(status.verifiedSeq).toBeGreaterThan(0);
    const verify = expectOk(await desk.cli(['team', 'verify']));
    expect(verify.stdout).toContain(`last verified row: ${status.verifiedSeq}`);
  });

  it("joins only with the desk's genesis fingerprint confirmed: none without a terminal, a different one refused naming it, asked at a terminal", async () => {
    const status = json<{ genesis: { fingerprint: string } | null }>(expectOk(await desk.cli(['team', 'status', '--json'])));
    const fingerprint = status.genesis?.fingerprint ?? '';
    expect(fingerprint).toMatch(/^[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}$/);
    expect(expectOk(await desk.cli(['team', 'status'])).stdout).toContain(`desk genesis: ${fingerprint}`);
    const second = await openCliDesk();
    try {
      const env = { ...as(ADMIN).env, TREASURY_DESK_DATABASE_URL: databaseUrl() };
      const join = ['team', 'join', '--workstation', 'laptop', '--as', ADMIN.name];
      expect(expectFailure(await second.cli(join, { env }), 2)).toContain('pass it with --genesis FINGERPRINT');
      const other = fingerprint === 'AAAA-AAAA-AAAA-AAAA' ? 'BBBB-BBBB-BBBB-BBBB' : 'AAAA-AAAA-AAAA-AAAA';
      const refused = await second.cli([...join, '--genesis', other], { env });
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toContain(`genesis fingerprint is ${fingerprint}, not ${other}`);
      expect(expectOk(await second.cli(['team', 'status'])).stdout).toContain('this desk is not a team desk');
      // At a terminal without --genesis: the fingerprint is shown and asked about; "no" joins nothing, "yes" joins.
      const declined = await second.cli(join, { env: { TREASURY_DESK_DATABASE_URL: databaseUrl() }, answers: ['n'] });
      expect(declined.code).not.toBe(0);
      expect(declined.stderr).toContain(`The desk's genesis fingerprint is ${fingerprint}`);
      expect(declined.stderr).toContain('was not confirmed; nothing was joined');
      const joined = await second.cli(join, { env: { TREASURY_DESK_DATABASE_URL: databaseUrl() }, answers: ['y', ADMIN.passphrase] });
      expect(joined.code, joined.stderr).toBe(0);
      expect(joined.prompts).toEqual(['Does it match? [y/N] ', `Passphrase of ${ADMIN.name}:  [hidden]`]);
      expect(joined.stdout).toContain(`desk genesis: ${fingerprint}`);
    } finally {
      await second.close();
    }
  }, 60_000);
});
