// `treasury-desk team …` in process, on a real PostgreSQL: status on a solo desk, init without a database (bad usage,
// exit 2), a password on the command line refused (exit 2, nothing done), init with TREASURY_DESK_DATABASE_URL and
// TREASURY_DESK_OWNER_DATABASE_URL standing in for the options, status and verify afterwards; a second desk joins only
// with the genesis fingerprint confirmed (--genesis); and init with password-free options whose passwords are typed at
// hidden prompts; the passwords are printed nowhere.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEAM_SCHEMA } from '../../../electron/core/team/pg-migrations';
import { ADMIN, as, expectFailure, expectOk, json, openCliDesk, setUpDesk, type CliDesk } from '../cli/support';
import { adminSql, databaseUrl, emptyTeamDatabase, ownerDatabaseUrl } from './desk-support';

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

  it('refuses a database password on the command line, saying how to pass it, and does nothing', async () => {
    const withoutPassword = (url: string): string => {
      const parsed = new URL(url);
      parsed.password = '';
      return parsed.toString();
    };
    const workstationPassword = decodeURIComponent(new URL(databaseUrl()).password);
    const ownerPassword = decodeURIComponent(new URL(ownerDatabaseUrl()).password);
    const env = { ...as(ADMIN).env, TREASURY_DESK_DATABASE_URL: '', TREASURY_DESK_OWNER_DATABASE_URL: '' };
    const attempts: [string[], string][] = [
      [['--database', databaseUrl(), '--owner-database', withoutPassword(ownerDatabaseUrl())], workstationPassword],
      [['--database', `${withoutPassword(databaseUrl())}?password=${workstationPassword}`], workstationPassword],
      [['--database', withoutPassword(databaseUrl()), '--owner-database', ownerDatabaseUrl()], ownerPassword],
    ];
    for (const [options, password] of attempts) {
      const refused = await desk.cli(['team', 'init', ...options, '--workstation', 'A', '--as', ADMIN.name], { env });
      const message = expectFailure(refused, 2);
      expect(message).toMatch(/must not carry the database password/);
      expect(message).toContain(options.includes(ownerDatabaseUrl()) ? 'TREASURY_DESK_OWNER_DATABASE_URL' : 'TREASURY_DESK_DATABASE_URL');
      expect(message).toMatch(/type the password when asked.*PGPASSWORD.*PGPASSFILE.*keychain/);
      expect(refused.stdout + refused.stderr).not.toContain(password);
    }
    const joined = expectFailure(await desk.cli(['team', 'join', '--database', databaseUrl(), '--workstation', 'B', '--as', ADMIN.name], { env }), 2);
    expect(joined).toMatch(/--database must not carry the database password/);
    expect(expectOk(await desk.cli(['team', 'status'])).stdout).toContain('this desk is not a team desk');
    expect(await adminSql(`SELECT to_regclass('${TEAM_SCHEMA}.audit_log') AS found`)).toEqual([{ found: null }]);
  });

  it('refuses team init as a workstation role without the owner, saying to pass the owner URL', async () => {
    const env = { ...as(ADMIN).env, TREASURY_DESK_DATABASE_URL: databaseUrl(), TREASURY_DESK_OWNER_DATABASE_URL: '' };
    const refused = await desk.cli(['team', 'init', '--workstation', 'front-office', '--as', ADMIN.name], { env });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/permission denied.*owner role.*TREASURY_DESK_OWNER_DATABASE_URL or --owner-database/);
    expect(refused.stderr).not.toContain(decodeURIComponent(new URL(databaseUrl()).password));
    expect(expectOk(await desk.cli(['team', 'status'])).stdout).toContain('this desk is not a team desk');
  });

  it('moves the desk into the team database named by TREASURY_DESK_DATABASE_URL, then reports and verifies it', async () => {
    const password = decodeURIComponent(new URL(databaseUrl()).password);
    const env = { ...as(ADMIN).env, TREASURY_DESK_DATABASE_URL: databaseUrl(), TREASURY_DESK_OWNER_DATABASE_URL: ownerDatabaseUrl() };
    const init = expectOk(await desk.cli(['team', 'init', '--workstation', 'front-office', '--as', ADMIN.name], { env }));
    expect(init.stdout).toMatch(/connected since .* UTC/);
    expect(init.stdout + init.stderr).not.toContain(password);
    const status = json<{ enabled: boolean; connected: boolean; reason: string | null; database: string; workstation: string; verifiedSeq: number }>(expectOk(await desk.cli(['team', 'status', '--json'])));
    expect(status).toMatchObject({ enabled: true, connected: true, reason: null, workstation: 'front-office' });
    expect(status.database).not.toContain(password);
    expect(status.verifiedSeq).toBeGreaterThan(0);
    const verify = expectOk(await desk.cli(['team', 'verify']));
    expect(verify.stdout).toContain(`last verified row: ${status.verifiedSeq}`);
    // The owner role was used for the migrations only: the workstation is kept as the workstation role.
    expect(status.database).toContain(`${new URL(databaseUrl()).username}@`);
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

  it('takes the passwords of password-free options from hidden prompts on a terminal', async () => {
    const other = await openCliDesk();
    try {
      await setUpDesk(other);
      await emptyTeamDatabase();
      const bare = (url: string): string => {
        const parsed = new URL(url);
        parsed.password = '';
        return parsed.toString();
      };
      const workstationPassword = decodeURIComponent(new URL(databaseUrl()).password);
      const ownerPassword = decodeURIComponent(new URL(ownerDatabaseUrl()).password);
      const init = await other.cli(
        ['team', 'init', '--database', bare(databaseUrl()), '--owner-database', bare(ownerDatabaseUrl()), '--workstation', 'back-office', '--as', ADMIN.name],
        { env: { TREASURY_DESK_DATABASE_URL: '', TREASURY_DESK_OWNER_DATABASE_URL: '' }, answers: [workstationPassword, ownerPassword, ADMIN.passphrase] },
      );
      expectOk(init);
      expect(init.prompts.filter((prompt) => /Password of .* for postgres:\/\/.*@127\.0\.0\.1:/.test(prompt))).toHaveLength(2);
      expect(init.stdout + init.stderr + init.prompts.join('\n')).not.toContain(workstationPassword);
      expect(init.stdout + init.stderr).not.toContain(ownerPassword);
      const status = json<{ connected: boolean; workstation: string }>(expectOk(await other.cli(['team', 'status', '--json'])));
      expect(status).toMatchObject({ connected: true, workstation: 'back-office' });
    } finally {
      await other.close();
    }
  });
});
