// `treasury-desk address validate`: exit codes 0/1/2, one-line stderr, JSON answers; in-process and as a real process.
import { describe, expect, it } from 'vitest';
import { runInProcessPlain, spawnCli, type Captured } from '../../support/cli';

const TRON = 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL';
const EVM_LOWER = '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed';
const EVM_CHECKSUMMED = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const TON_TESTNET = 'kQDKbjIcfM6ezt8KjKJJLshZJJSqX7XOA4ff-W72r5gqPgpP';
const TEP2_RAW = '-1:e56754f83426f69b09267bd876ac97c44821345b7e266bd956a7bfbfb98df35c';

function run(...args: string[]): Promise<Captured> {
  return runInProcessPlain(['address', 'validate', ...args]);
}

function lines(text: string): string[] {
  return text.split('\n').filter((line) => line.length > 0);
}

describe('address validate (in process)', () => {
  it('a valid address: exit 0, "valid TRON address ..." on stdout, nothing on stderr', async () => {
    expect(await run('--chain', 'trx', TRON)).toEqual({ code: 0, stdout: `valid TRON address ${TRON}\n`, stderr: '' });
  });

  it('a valid one-case address also shows its checksummed form and the no-checksum note', async () => {
    const result = await run('--chain', 'eth', EVM_LOWER);
    expect(result.code).toBe(0);
    expect(lines(result.stdout)).toEqual([
      `valid Ethereum address ${EVM_LOWER} (canonical form: ${EVM_CHECKSUMMED})`,
      'note: written in one case, so it carries no checksum: a mistyped character would not be noticed',
    ]);
  });

  it('an invalid address: exit 1, one line on stderr naming the chain and the reason, nothing on stdout', async () => {
    const result = await run('--chain', 'trx', 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeM');
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: 'treasury-desk: invalid TRON address: checksum does not match — check for a mistyped character\n',
    });
  });

  it('an Ethereum address given for TRON gets the cross-chain reason', async () => {
    const result = await run('--chain', 'trx', EVM_CHECKSUMMED);
    expect(result.stderr).toBe('treasury-desk: invalid TRON address: this is an Ethereum or BNB Smart Chain address, not a TRON one\n');
    expect(result.code).toBe(1);
  });

  it('a testnet TON address is refused', async () => {
    const result = await run('--chain', 'ton', TON_TESTNET);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('treasury-desk: invalid TON address: testnet address: the platform only pays to mainnet addresses\n');
  });

  it('an address with a trailing space is refused (the shell passes it when quoted)', async () => {
    const result = await run('--chain', 'trx', `${TRON} `);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('has spaces at the start or end');
  });

  it('a raw masterchain TON address starting with "-" is taken as the address, with or without "--"', async () => {
    expect((await run('--chain', 'ton', TEP2_RAW)).code).toBe(0);
    expect((await run('--chain', 'ton', '--', TEP2_RAW)).code).toBe(0);
  });

  it('an unknown chain: exit 2 with the allowed values', async () => {
    const result = await run('--chain', 'btc', TRON);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: "treasury-desk: unknown chain 'btc': use one of trx, eth, bnb, solana, ton.\n",
    });
  });

  it.each([
    ['no --chain', [TRON]],
    ['no address', ['--chain', 'trx']],
    ['two addresses', ['--chain', 'trx', TRON, TRON]],
    ['a mistyped option alone', ['--chain', 'trx', '--jsn']],
    ['a mistyped option with an address', ['--chain', 'trx', '--jsn', TRON]],
  ])('%s: exit 2 with one line on stderr', async (_what, args) => {
    const result = await run(...args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.endsWith('\n')).toBe(true);
    expect(lines(result.stderr)).toHaveLength(1);
  });

  describe('--json', () => {
    it('valid: exit 0 and {valid, chain, normalized, notes}', async () => {
      const result = await run('--json', '--chain', 'bnb', EVM_LOWER);
      expect(result.code).toBe(0);
      expect(result.stderr).toBe('');
      expect(JSON.parse(result.stdout)).toEqual({
        valid: true,
        chain: 'bnb',
        normalized: EVM_CHECKSUMMED,
        notes: ['written in one case, so it carries no checksum: a mistyped character would not be noticed'],
      });
    });

    it('invalid: exit 1 and {valid: false, chain, code, reason} on stdout only', async () => {
      const result = await run('--chain', 'eth', '--json', TRON);
      expect(result.code).toBe(1);
      expect(result.stderr).toBe('');
      expect(JSON.parse(result.stdout)).toEqual({
        valid: false,
        chain: 'eth',
        code: 'otherChain',
        reason: 'this is a TRON address, not an Ethereum one',
      });
    });

    it('bad usage still exits 2 on stderr', async () => {
      const result = await run('--json', '--chain', 'doge', TRON);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
    });
  });
});

describe('address validate (a real treasury-desk process)', () => {
  function spawnValidate(...args: string[]): Promise<Captured> {
    return spawnCli(['address', 'validate', ...args]);
  }

  it('exit 0 for a valid address, the answer on stdout, stderr empty', async () => {
    const result = await spawnValidate('--chain', 'trx', TRON);
    expect(result).toEqual({ code: 0, stdout: `valid TRON address ${TRON}\n`, stderr: '' });
  });

  it('exit 1 for an invalid address with exactly one line on stderr', async () => {
    const result = await spawnValidate('--chain', 'solana', TRON);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('treasury-desk: invalid Solana address: this is a TRON address, not a Solana one\n');
  });

  it('exit 2 for an unknown chain with exactly one line on stderr', async () => {
    const result = await spawnValidate('--chain', 'btc', TRON);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')).toEqual(["treasury-desk: unknown chain 'btc': use one of trx, eth, bnb, solana, ton.", '']);
  });

  it('exit 2 for a missing argument with exactly one line on stderr', async () => {
    const result = await spawnValidate('--chain', 'trx');
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')).toHaveLength(2);
    expect(result.stderr.endsWith('\n')).toBe(true);
  });
});
