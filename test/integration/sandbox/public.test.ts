// The public interface (§12, §5.6): getCurrencies, isAddress, checkTransfer with its 5 s per-txid cooldown and
// 20 requests per minute per IP, and generateAddresssQrCode: a PNG decoded back with zbarimg; the two-s path is 404.
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WITHDRAWAL_CURRENCIES, type Chain } from '../../../electron/chains';
import {
  AMOUNT_PATTERN,
  CHECK_TRANSFER_COOLDOWN_SECONDS,
  CHECK_TRANSFER_RATE_PER_MINUTE,
  PATHS,
  PNG_SIGNATURE,
} from '../../../electron/protocol/profile';
import { cryptoRandom, newChainAddress, newTxid } from '../../../electron/sandbox/chain-sim';
import { expectData, postForm, rawRequest } from '../../support/raw-merchant';
import { openSandbox, type TestSandbox } from './harness';

const run = promisify(execFile);
let t: TestSandbox;

beforeAll(async () => {
  t = await openSandbox();
});

afterEach(() => t.expectInvariant());

afterAll(async () => {
  await t.close();
});

const address = (chain: Chain): string => newChainAddress(chain, cryptoRandom);

async function setClock(offsetSeconds: number): Promise<void> {
  expect((await t.admin('POST', '/clock', { offsetSeconds })).status).toBe(200);
}

describe('getCurrencies (§12.1)', () => {
  it('lists the 13 withdrawal symbols with decimal-string fees and minimums', async () => {
    const answer = await postForm(t.sandbox.baseUrl, PATHS.getCurrencies, {});
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(answer.headers['svc-sign']).toBeUndefined();
    const body = answer.json as { code: number; message: string; data: Array<Record<string, string>> };
    expect(body.code).toBe(10000);
    expect(body.data.map((record) => record.symbol)).toEqual([...WITHDRAWAL_CURRENCIES]);
    const fields = ['deposit_fixed_fee', 'deposit_percent_fee', 'withdraw_fixed_fee', 'withdraw_percent_fee', 'deposit_min_fee', 'deposit_max_fee', 'withdraw_min_fee', 'withdraw_max_fee', 'deposit_min', 'withdraw_min'];
    for (const record of body.data) {
      expect(typeof record.name).toBe('string');
      for (const field of fields) expect(record[field]).toMatch(AMOUNT_PATTERN);
      expect(Number(record.withdraw_min)).toBeGreaterThan(0);
    }
    expect((await rawRequest(t.sandbox.baseUrl + PATHS.getCurrencies)).status).toBe(405);
  });
});

describe('isAddress (spec isAddress)', () => {
  it('answers 10000 for an address valid on the coin\'s chain and 9999 otherwise', async () => {
    const isAddress = async (params: Record<string, string>) => (await postForm(t.sandbox.baseUrl, PATHS.isAddress, params)).json;
    const chains: Record<string, Chain> = { trx: 'trx', 'trx.usdt': 'trx', eth: 'eth', 'eth.usdc': 'eth', bnb: 'bnb', 'bnb.usdt': 'bnb', solana: 'solana', 'solana.usdt': 'solana', ton: 'ton', 'ton.usdt': 'ton' };
    for (const [coin, chain] of Object.entries(chains)) {
      expect(await isAddress({ address: address(chain), coin_type: coin })).toEqual({ code: 10000, data: '', message: 'success' });
    }
    expect(await isAddress({ address: address('eth'), coin_type: 'trx' })).toEqual({ code: 9999, data: '', message: 'invalidAddress' });
    expect(await isAddress({ address: 'TXYZ', coin_type: 'trx.usdt' })).toEqual({ code: 9999, data: '', message: 'invalidAddress' });
    expect(await isAddress({ address: address('trx'), coin_type: 'trx.usdc' })).toEqual({ code: 9999, data: '', message: 'currencyNotSupported' });
    expect(await isAddress({ address: address('trx'), coin_type: 'tron' })).toEqual({ code: 9999, data: '', message: 'currencyNotSupported' });
    expect(await isAddress({ coin_type: 'trx' })).toEqual({ code: 9999, data: '', message: 'paramError' });
    expect(await isAddress({ address: address('trx') })).toEqual({ code: 9999, data: '', message: 'paramError' });
  });
});

describe('checkTransfer (§12.2)', () => {
  it('answers 10000 for simulated txids, 9999 for unknown ones, and repeats the previous answer within 5 s', async () => {
    const client = await t.newMerchant();
    const { address: to } = expectData<{ address: string }>(await client.call('/api/merchant/createAddress', { userOrder: 'ct-1', addressType: 'trx' }));
    const check = async (txid: string, coin = 'trx') => (await postForm(t.sandbox.baseUrl, PATHS.checkTransfer, { txid, coin_type: coin })).json;
    try {
      const txid = newTxid('trx', cryptoRandom);
      expect(await check(txid)).toEqual({ code: 9999, data: '', message: 'transferNotFound' });
      const sent = await t.admin<{ credited: boolean }>('POST', '/transfers', { toAddress: to, currency: 'trx', amount: '10', txid });
      expect(sent.json.credited).toBe(true);
      // Inside the cooldown the previous answer comes back unchanged, even though the transfer now exists.
      expect(await check(txid)).toEqual({ code: 9999, data: '', message: 'transferNotFound' });
      await setClock(CHECK_TRANSFER_COOLDOWN_SECONDS + 1);
      expect(await check(txid)).toEqual({ code: 10000, data: '', message: 'success' });
      await setClock(2 * (CHECK_TRANSFER_COOLDOWN_SECONDS + 1));
      expect(await check(txid, 'trx.usdt')).toEqual({ code: 9999, data: '', message: 'transferNotFound' });
      await setClock(3 * (CHECK_TRANSFER_COOLDOWN_SECONDS + 1));
      expect(await check(txid.toUpperCase())).toEqual({ code: 10000, data: '', message: 'success' });
      expect(await check('0x1234')).toEqual({ code: 9999, data: '', message: 'paramError' });
      expect(await check(newTxid('trx', cryptoRandom), 'trx.usdc')).toEqual({ code: 9999, data: '', message: 'currencyNotSupported' });
      expect((await postForm(t.sandbox.baseUrl, PATHS.checkTransfer, { coin_type: 'trx' })).json).toEqual({ code: 9999, data: '', message: 'paramError' });
    } finally {
      await setClock(0);
    }
  });

  it('refuses the 21st request within a minute from one IP with rateLimited, until the minute has passed', async () => {
    // Start from a clean minute: earlier tests of this file used the same IP.
    await setClock(3600);
    try {
      const answers: unknown[] = [];
      for (let i = 0; i < CHECK_TRANSFER_RATE_PER_MINUTE + 2; i += 1) {
        answers.push((await postForm(t.sandbox.baseUrl, PATHS.checkTransfer, { txid: newTxid('eth', cryptoRandom), coin_type: 'eth' })).json);
      }
      expect(answers.slice(0, CHECK_TRANSFER_RATE_PER_MINUTE).every((answer) => (answer as { message: string }).message === 'transferNotFound')).toBe(true);
      expect(answers.slice(CHECK_TRANSFER_RATE_PER_MINUTE)).toEqual([
        { code: 9999, data: '', message: 'rateLimited' },
        { code: 9999, data: '', message: 'rateLimited' },
      ]);
      await setClock(3600 + 61);
      expect((await postForm(t.sandbox.baseUrl, PATHS.checkTransfer, { txid: newTxid('eth', cryptoRandom), coin_type: 'eth' })).json).toEqual({
        code: 9999,
        data: '',
        message: 'transferNotFound',
      });
    } finally {
      await setClock(0);
    }
  });
});

describe('generateAddresssQrCode (§12.3)', () => {
  it('answers a PNG whose QR content is exactly the address, for every address type', async () => {
    const cases: Array<[string, string]> = [
      ['trx', address('trx')],
      ['eth_bnb', address('eth')],
      ['eth', address('eth')],
      ['bnb', address('bnb')],
      ['solana', address('solana')],
      ['ton', address('ton')],
      ['ton', 'EQ-abc_def+ghi.jkl'],
    ];
    for (const [index, [addressType, text]] of cases.entries()) {
      const query = new URLSearchParams({ address: text, address_type: addressType });
      const answer = await rawRequest(`${t.sandbox.baseUrl}${PATHS.generateAddressQrCode}?${query.toString()}`);
      expect(answer.status).toBe(200);
      expect(answer.headers['content-type']).toBe('image/png');
      expect(answer.body.subarray(0, PNG_SIGNATURE.length)).toEqual(Buffer.from(PNG_SIGNATURE));
      const file = join(t.dir, `qr-${index}.png`);
      writeFileSync(file, answer.body);
      const { stdout } = await run('zbarimg', ['--quiet', '--raw', '--nodbus', file]);
      expect(stdout.replace(/\n$/, '')).toBe(text);
    }
  });

  it('refuses invalid parameters with HTTP 400 JSON paramError and no image', async () => {
    const bad: Array<Record<string, string>> = [
      { address: 'has space', address_type: 'trx' },
      { address: 'a/b', address_type: 'trx' },
      { address: 'abc?', address_type: 'trx' },
      { address: '', address_type: 'trx' },
      { address: address('trx'), address_type: 'btc' },
      { address: address('trx'), address_type: 'TRX' },
      { address: address('trx') },
      { address_type: 'trx' },
    ];
    for (const params of bad) {
      const answer = await rawRequest(`${t.sandbox.baseUrl}${PATHS.generateAddressQrCode}?${new URLSearchParams(params).toString()}`);
      expect(answer.status).toBe(400);
      expect(answer.headers['content-type']).toBe('application/json');
      expect(JSON.parse(answer.text)).toEqual({ code: 9999, data: '', message: 'paramError' });
    }
  });

  it('answers 404 on the two-s spelling and 405 on POST', async () => {
    const query = new URLSearchParams({ address: address('trx'), address_type: 'trx' }).toString();
    expect((await rawRequest(`${t.sandbox.baseUrl}/api/common/generateAddressQrCode?${query}`)).status).toBe(404);
    expect((await rawRequest(`${t.sandbox.baseUrl}${PATHS.generateAddressQrCode}?${query}`, { method: 'POST' })).status).toBe(405);
    expect((await rawRequest(`${t.sandbox.baseUrl}/api/common/unknown`, { method: 'POST' })).status).toBe(404);
  });
});
