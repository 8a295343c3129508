// `treasury-desk profile ...`: merchant profiles. add, import, keygen, list, use, remove; on a team desk propose-add and
// propose-remove (four-eyes proposals: docs/team.md "Pinned trust roots"). The four credentials go to
// the OS keychain through the engine; the secret is read from a file, a hidden prompt or TREASURY_DESK_SECRET,
// never from argv; nothing secret is printed (keys only as fingerprints, the generated PUBLIC key as PEM).
import type { Command } from 'commander';
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ProfileSummary } from '../../contract';
import { credentialsFilePermissionWarning } from '../../core/secrets/credentials-file';
import { collect } from '../args';
import { addEngineOptions, askNewPassphrase, ENV, PLACEHOLDER, secretInput, withSession, type EngineSession } from '../engine-session';
import { UsageError } from '../errors';
import { orDash, table } from '../format';
import { readTextFileArgument, writeFileArgument, type CliIo } from '../io';
import type { CommandRegistrar } from '../program';

interface AddOptions {
  readonly baseUrl: string;
  readonly merchantId: string;
  readonly secretFile?: string;
  readonly platformKey: string;
  readonly merchantKey?: string;
}

function printProfiles(session: EngineSession, profiles: readonly ProfileSummary[]): void {
  session.output(profiles, () => {
    if (profiles.length === 0) {
      session.say('no merchant profiles: add one with "treasury-desk profile import FILE" or "treasury-desk profile add NAME ..."');
      return;
    }
    session.io.stdout(
      table(
        ['', 'name', 'merchant', 'base URL', 'credentials', 'platform key', 'merchant key'],
        profiles.map((profile) => [
          profile.active ? '*' : '',
          profile.isDemo ? `${profile.name} (demo)` : profile.name,
          profile.merchantId,
          profile.baseUrl,
          profile.credentialSource,
          orDash(profile.platformKeyFingerprint),
          orDash(profile.merchantKeyFingerprint),
        ]),
      ),
    );
  });
}

function printSummary(session: EngineSession, verb: string, profile: ProfileSummary): void {
  session.output(profile, () => {
    session.say(`${verb} profile ${profile.name}: merchant ${profile.merchantId} at ${profile.baseUrl}${profile.active ? ' (active)' : ''}`);
    session.say(`credentials: ${profile.credentialSource}; platform key ${orDash(profile.platformKeyFingerprint)}; merchant key ${orDash(profile.merchantKeyFingerprint)}`);
  });
}

/** The merchant secret: from --secret-file (trimmed), a hidden prompt, or TREASURY_DESK_SECRET. */
async function readSecret(io: CliIo, file: string | undefined): Promise<string> {
  if (file !== undefined) {
    const secret = readTextFileArgument(file, 'secret').trim();
    if (secret === '') throw new UsageError(`secret file ${file} is empty.`);
    return secret;
  }
  return secretInput(io, { question: 'Merchant secret: ', envVar: ENV.secret, what: 'the merchant secret (--secret-file FILE)' });
}

function registerAdd(profile: Command, io: CliIo): void {
  addEngineOptions(
    profile
      .command('add')
      .description('Add a merchant profile from typed values; the credentials go to the OS keychain')
      .argument('<name>', 'profile name')
      .requiredOption('--base-url <url>', "the service's base URL, e.g. https://api.example.com")
      .requiredOption('--merchant-id <id>', 'the merchant ID (app ID) the platform issued')
      .option('--secret-file <file>', `file holding the merchant secret (default: a hidden prompt, or ${ENV.secret} without a terminal)`)
      .requiredOption('--platform-key <file>', 'the platform public key: PEM or base64 DER file')
      .option('--merchant-key <file>', 'the merchant private key file (default: the key made by "profile keygen NAME")'),
  ).action(async (name: string, options: AddOptions, command: Command) => {
    const platformPublicKey = readTextFileArgument(options.platformKey, 'platform key');
    const merchantPrivateKey = options.merchantKey === undefined ? undefined : readTextFileArgument(options.merchantKey, 'merchant key');
    const secret = await readSecret(io, options.secretFile);
    await withSession(command, io, async (session) => {
      const summary = await session.run(
        'profiles/add',
        {
          name,
          credentials: {
            baseUrl: options.baseUrl,
            merchantId: options.merchantId,
            secret,
            platformPublicKey,
            ...(merchantPrivateKey === undefined ? {} : { merchantPrivateKey }),
          },
        },
        { name: 'NAME', platformPublicKey: '--platform-key', merchantPrivateKey: '--merchant-key', secret: 'the secret' },
      );
      printSummary(session, 'added', summary);
    });
  });
}

function registerImport(profile: Command, io: CliIo): void {
  addEngineOptions(
    profile
      .command('import')
      .description('Import a credentials.json (baseUrl, merchantId, secret, platformPublicKey, merchantPrivateKey) into the keychain')
      .argument('<file>', 'the credentials.json file')
      .option('--name <name>', 'profile name', 'default'),
  ).action(async (file: string, options: { readonly name: string }, command: Command) => {
    const path = resolve(file);
    await withSession(command, io, async (session) => {
      const summary = await session.run('profiles/importFile', { name: options.name, path }, { name: '--name', path: 'FILE' });
      // The file stays on disk after the import: say so when others can read it.
      try {
        const warning = credentialsFilePermissionWarning(path, statSync(path).mode);
        if (warning !== undefined) session.warn(`${warning} Now that it is in the keychain, consider deleting the file.`);
      } catch {
        // the file went away after the import: nothing to warn about
      }
      printSummary(session, 'imported', summary);
    });
  });
}

function registerKeygen(profile: Command, io: CliIo): void {
  addEngineOptions(
    profile
      .command('keygen')
      .description('Generate the merchant key pair for a new profile: the private key waits in the keychain; register the printed public key with the platform')
      .argument('<name>', 'profile name (then "profile add NAME ..." without --merchant-key uses this key)')
      .option('--out <file>', 'write the public key PEM to this file instead of stdout'),
  ).action(async (name: string, options: { readonly out?: string }, command: Command) => {
    await withSession(command, io, async (session) => {
      const key = await session.run('profiles/generateKey', { name }, { name: 'NAME' });
      if (options.out !== undefined) writeFileArgument(options.out, key.publicKeyPem, 'public key');
      session.output({ ...key, ...(options.out !== undefined ? { path: resolve(options.out) } : {}) }, () => {
        if (options.out === undefined) io.stdout(key.publicKeyPem.endsWith('\n') ? key.publicKeyPem : `${key.publicKeyPem}\n`);
        else session.say(`wrote the public key of profile ${name} to ${options.out}`);
        session.say(`fingerprint: ${key.fingerprint}`);
        session.say(`Register this public key with the platform; when it issues the other values, run "treasury-desk profile add ${name} ..." without --merchant-key.`);
      });
    });
  });
}

export const registerProfileCommands: CommandRegistrar = (program, io) => {
  const profile = program.command('profile').description('Merchant profiles: credentials in the OS keychain');
  registerAdd(profile, io);
  registerImport(profile, io);
  registerKeygen(profile, io);

  addEngineOptions(profile.command('list').description('List the merchant profiles (* marks the active one)')).action(async (_options: unknown, command: Command) => {
    await withSession(command, io, async (session) => printProfiles(session, await session.run('profiles/list', {})));
  });

  addEngineOptions(profile.command('use').description('Make a profile the active one').argument('<name>', 'profile name')).action(
    async (name: string, _options: unknown, command: Command) => {
      await withSession(command, io, async (session) => printSummary(session, 'using', await session.run('profiles/select', { name }, { name: 'NAME' })));
    },
  );

  addEngineOptions(
    profile
      .command('remove')
      .description('Remove a profile and its keychain entries (its history stays for the audit trail)')
      .argument('<name>', 'profile name')
      .option('--as <admin>', "one of the profile's admins (needed once the profile is founded; asked for a passphrase)"),
  ).action(async (name: string, options: { readonly as?: string }, command: Command) => {
    await withSession(command, io, async (session) => {
      const as = options.as === undefined ? undefined : await session.acting(options.as);
      const removed = await session.run('profiles/remove', { name, ...(as ? { as } : {}) }, { name: 'NAME' });
      session.output(removed, () => session.say(`removed profile ${removed.removed} and its keychain entries`));
    });
  });

  addEngineOptions(
    profile
      .command('propose-add')
      .description('On a team desk: propose adding a profile imported here (an admin of the active profile signs; a second independent admin confirms)')
      .argument('<name>', 'the profile to add (its credentials imported at this workstation)')
      .requiredOption('--merchant-id <id>', 'its merchant ID, as the proposal signs it')
      .requiredOption('--founder <name>', 'a founding admin of the new profile, who types a new passphrase now; give it twice for two', collect)
      .requiredOption('--as <admin>', 'an admin of the active profile proposing it (asked for a passphrase)'),
  ).action(async (name: string, options: { readonly merchantId: string; readonly founder: readonly string[]; readonly as: string }, command: Command) => {
    await withSession(command, io, async (session) => {
      const labels = { name: 'NAME', merchantId: '--merchant-id', founders: '--founder' };
      const placeholder = options.founder.map((operator) => ({ operator, passphrase: PLACEHOLDER }));
      session.check('profiles/proposeAdd', { name, merchantId: options.merchantId, founders: placeholder, as: { operator: options.as, passphrase: PLACEHOLDER } }, labels);
      const founders: { operator: string; passphrase: string }[] = [];
      for (const [index, operator] of options.founder.entries()) {
        founders.push({ operator, passphrase: await askNewPassphrase(io, operator, index === 0 ? ENV.newPassphrase : ENV.newPassphrase2) });
      }
      const change = await session.runAs('profiles/proposeAdd', { name, merchantId: options.merchantId, founders }, options.as, labels);
      session.output(change, () => session.say(change.message));
    });
  });

  addEngineOptions(
    profile
      .command('propose-remove')
      .description("On a team desk: propose removing a founded profile (one of its admins signs; a second independent admin confirms; then profile remove)")
      .argument('<name>', 'the founded profile')
      .requiredOption('--as <admin>', "one of the profile's admins (asked for a passphrase)"),
  ).action(async (name: string, options: { readonly as: string }, command: Command) => {
    await withSession(command, io, async (session) => {
      const change = await session.runAs('profiles/proposeRemove', { name }, options.as, { name: 'NAME' });
      session.output(change, () => session.say(change.message));
    });
  });
};
