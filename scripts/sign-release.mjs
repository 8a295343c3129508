// Release engineer's tool: signs electron-builder's latest-*.yml with the Ed25519 release key (from a file or the
// RELEASE_SIGNING_KEY environment variable, PEM), writing the detached signature beside it as <file>.sig (base64).
// Invariant: the signature covers the file's exact bytes (re-read after signing and verified); the key is never printed.
//   node scripts/sign-release.mjs dist/latest-linux.yml [--key release-key.pem]
//   node scripts/sign-release.mjs --new-key release-key.pem      (creates a key; prints its public key to pin)
//   node scripts/sign-release.mjs --public-key [--key release-key.pem]
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const USAGE = 'usage: node scripts/sign-release.mjs <latest-*.yml> [--key <private-key.pem>] | --new-key <file> | --public-key [--key <file>]';

function fail(message) {
  process.stderr.write(`sign-release: ${message}\n`);
  process.exit(1);
}

function loadKey(keyFile) {
  const pem = keyFile !== undefined ? readFileSync(keyFile, 'utf8') : process.env['RELEASE_SIGNING_KEY'];
  if (pem === undefined || pem.trim() === '') fail('give the private key with --key <file> or the RELEASE_SIGNING_KEY environment variable (PEM)');
  let key;
  try {
    key = createPrivateKey(pem);
  } catch {
    fail('the release key is not a PEM private key');
  }
  if (key.asymmetricKeyType !== 'ed25519') fail(`the release key must be Ed25519, not ${key.asymmetricKeyType}`);
  return key;
}

/** Signs `metadataFile`; returns the signature file's path. */
export function signRelease(metadataFile, privateKey) {
  const bytes = readFileSync(metadataFile);
  const signature = sign(null, bytes, privateKey);
  if (!verify(null, readFileSync(metadataFile), createPublicKey(privateKey), signature)) throw new Error(`${metadataFile} changed while it was signed: sign it again`);
  const out = `${metadataFile}.sig`;
  writeFileSync(out, `${signature.toString('base64')}\n`);
  return out;
}

function main(argv) {
  const keyAt = argv.indexOf('--key');
  const keyFile = keyAt === -1 ? undefined : argv[keyAt + 1];
  if (keyAt !== -1 && keyFile === undefined) fail(USAGE);
  const rest = argv.filter((_, index) => index !== keyAt && index !== keyAt + 1);
  if (rest[0] === '--new-key') {
    const file = rest[1];
    if (file === undefined) fail(USAGE);
    if (existsSync(file)) fail(`${file} exists: choose a new file (an existing key is never overwritten)`);
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    writeFileSync(file, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600, flag: 'wx' });
    process.stdout.write(`Created ${file}. Pin this public key as RELEASE_PUBLIC_KEY_PEM (electron/main/updates/release-check.ts):\n`);
    process.stdout.write(publicKey.export({ type: 'spki', format: 'pem' }));
    return;
  }
  if (rest[0] === '--public-key') {
    process.stdout.write(createPublicKey(loadKey(keyFile)).export({ type: 'spki', format: 'pem' }));
    return;
  }
  const file = rest[0];
  if (file === undefined || rest.length !== 1) fail(USAGE);
  if (!/^latest(-[a-z0-9]+)?\.yml$/.test(file.split(/[\\/]/).at(-1) ?? '')) fail(`${file} is not electron-builder's release metadata (latest-*.yml)`);
  if (!existsSync(file)) fail(`${file} does not exist: build the release first (npm run dist)`);
  const out = signRelease(file, loadKey(keyFile));
  process.stdout.write(`Signed ${file}: upload ${out} beside it.\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) main(process.argv.slice(2));
