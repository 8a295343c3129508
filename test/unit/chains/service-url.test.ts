// The service base URL rule (issue 11, item 7): https anywhere, plain http only to this computer (127.0.0.0/8, ::1,
// localhost, in any spelling the URL parser normalises to them), no credentials in the URL, and messages that never
// repeat the URL; the contract's credentials schema, the credentials file and the protocol client all apply it.
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isLoopbackHostname, serviceBaseUrlProblem } from '../../../electron/chains';
import { parseRequest } from '../../../electron/contract';
import { InvalidArgumentError, MerchantClient, PublicClient } from '../../../electron/protocol';

describe('serviceBaseUrlProblem', () => {
  it('accepts https anywhere and http to loopback hosts only', () => {
    for (const url of [
      'https://pay.example.com',
      'https://pay.example.com:8443/gateway/',
      'https://10.1.2.3',
      ' https://pay.example.com ',
      'http://127.0.0.1:8787',
      'http://127.255.255.254',
      'http://127.1:8787',
      'http://0x7f.0.0.1',
      'http://localhost:8787',
      'http://LOCALHOST',
      'http://[::1]:8787',
      'http://[0:0:0:0:0:0:0:1]',
    ]) {
      expect(serviceBaseUrlProblem(url), url).toBeNull();
    }
  });

  it('refuses plain http to any other host, saying to use https', () => {
    for (const url of [
      'http://pay.example.com',
      'http://10.0.0.5:8787',
      'http://128.0.0.1',
      'http://localhost.example.com',
      'http://127.0.0.1.nip.io',
      'http://[::2]',
      'http://[::ffff:127.0.0.1]',
      'http://0.0.0.0',
    ]) {
      expect(serviceBaseUrlProblem(url), url).toMatch(/^must use https:\/\/ \(plain http:\/\/ is accepted only for this computer itself/);
    }
  });

  it('refuses other schemes, junk and credentials in the URL, without repeating it', () => {
    expect(serviceBaseUrlProblem('ftp://pay.example.com')).toBe('must start with https://, not ftp://');
    expect(serviceBaseUrlProblem('pay.example.com')).toMatch(/not a valid URL/);
    const withPassword = 'https://user:s3cretPassw0rd@pay.example.com';
    expect(serviceBaseUrlProblem(withPassword)).toBe('must not contain a user name or password');
    expect(serviceBaseUrlProblem('http://user:s3cretPassw0rd@pay.example.com')).not.toContain('s3cret');
  });

  it('knows loopback host names as the URL parser writes them', () => {
    expect(isLoopbackHostname(new URL('http://127.000.000.001').hostname)).toBe(true);
    expect(isLoopbackHostname('[::1]')).toBe(true);
    expect(isLoopbackHostname('127.0.0.256')).toBe(false);
    expect(isLoopbackHostname('example.com')).toBe(false);
  });
});

describe('where the rule applies', () => {
  const credentials = {
    merchantId: 'M-1',
    secret: 'secret',
    platformPublicKey: 'key',
    merchantPrivateKey: 'key',
  };

  it('the contract refuses an http base URL for another host in profiles/add, and accepts a loopback one', () => {
    const refused = parseRequest('profiles/add', { name: 'p', credentials: { ...credentials, baseUrl: 'http://pay.example.com' } });
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.error.code).toBe('invalidInput');
      expect(refused.error.fields?.['credentials.baseUrl']).toMatch(/^the base URL must use https:\/\//);
    }
    expect(parseRequest('profiles/add', { name: 'p', credentials: { ...credentials, baseUrl: 'http://127.0.0.1:8787' } }).ok).toBe(true);
    expect(parseRequest('profiles/add', { name: 'p', credentials: { ...credentials, baseUrl: 'https://pay.example.com' } }).ok).toBe(true);
  });

  it('the protocol clients refuse it when constructed, so a profile stored earlier cannot be used over plain http', async () => {
    const platform = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const merchant = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const options = { merchantId: 'M-1', secret: 'secret', platformPublicKey: platform.publicKey, merchantPrivateKey: merchant.privateKey };
    expect(() => new MerchantClient({ ...options, baseUrl: 'http://pay.example.com' })).toThrow(InvalidArgumentError);
    expect(() => new MerchantClient({ ...options, baseUrl: 'http://pay.example.com' })).toThrow(/baseUrl: must use https:\/\//);
    expect(() => new PublicClient({ baseUrl: 'http://pay.example.com' })).toThrow(/must use https:\/\//);
    await new PublicClient({ baseUrl: 'http://127.0.0.1:9' }).close();
  });
});
