// `treasury-desk wire ...`: encrypt, decrypt, sign and verify exactly as the protocol does, for support engineers.
//
// Typical use, diagnosing a `signatureFailed` answer from a captured request (headers SVC-TIMESTAMP, SVC-NONCE,
// SVC-SIGN and the body saved to body.txt exactly as sent):
//
//   treasury-desk wire verify --public-key merchant-public.pem \
//     --timestamp 1700000000 --nonce 0123456789abcdef0123456789abcdef --signature 'AbC...==' < body.txt
//
// The signature covers the exact bytes of the body (PROTOCOL §3.2), so `sign` and `verify` read stdin verbatim:
// `echo "$BODY" | treasury-desk wire sign ...` signs BODY plus the line feed echo appends, which is a different
// signature. Use `printf %s "$BODY"`, or pass --strip-newline to remove exactly one trailing "\n".
import type { Command } from 'commander';
import type { KeyObject } from 'node:crypto';
import { decryptBytes, encryptBytes, parsePlaintextJson } from '../../protocol/cipher';
import { parsePrivateKey, parsePublicKey } from '../../protocol/keys';
import { signingInput, signText, verifyText } from '../../protocol/signature';
import { isValidNonce, parseTimestamp } from '../../protocol/wire';
import { EXIT_SUCCESS, NegativeAnswer, UsageError } from '../errors';
import { readTextFileArgument, type CliIo } from '../io';
import type { CommandRegistrar } from '../program';
import { safeJsonDocument } from '../safe-output';

const STANDARD_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

interface KeyOption {
  readonly publicKey?: string;
  readonly privateKey?: string;
}

interface SigningOptions {
  readonly timestamp: string;
  readonly nonce: string;
  readonly stripNewline?: boolean;
}

/** Reads and parses a key file. KeyFormatError (exit 2) names the file and the problem, never the key text. */
function loadPublicKey(path: string): KeyObject {
  return parsePublicKey(readTextFileArgument(path, 'public key'), `public key ${path}`);
}

function loadPrivateKey(path: string): KeyObject {
  return parsePrivateKey(readTextFileArgument(path, 'private key'), `private key ${path}`);
}

/** §4.1 and §4.3: the same syntax the service checks, so a malformed header is reported as such (exit 2). */
function checkTimestampAndNonce(options: SigningOptions): void {
  if (parseTimestamp(options.timestamp) === undefined) {
    throw new UsageError(`--timestamp must be Unix time in whole seconds, decimal digits only (PROTOCOL §4.1); got ${quote(options.timestamp)}.`);
  }
  if (!isValidNonce(options.nonce)) {
    throw new UsageError(`--nonce must be 16 to 64 characters from [A-Za-z0-9] (PROTOCOL §4.3); got ${quote(options.nonce)}.`);
  }
}

/** Shows a user-supplied value on one line, shortened; never used for key text. */
function quote(value: string): string {
  const shown = value.length > 80 ? `${value.slice(0, 77)}...` : value;
  return JSON.stringify(shown);
}

/** The body exactly as given, or without one trailing "\n" when --strip-newline asks for it. */
function bodyFrom(stdin: string, stripNewline: boolean | undefined): string {
  return stripNewline === true && stdin.endsWith('\n') ? stdin.slice(0, -1) : stdin;
}

function registerEncrypt(wire: Command, io: CliIo): void {
  wire
    .command('encrypt')
    .description('Encrypt the JSON on stdin to §2 ciphertext (base64) with a public key.')
    .requiredOption('--public-key <file>', 'public key file: PEM or base64 DER (the platform public key for a request)')
    .addHelpText(
      'after',
      '\nThe JSON text is encrypted as given (surrounding white space removed), not re-serialised, so numbers and key order stay exactly as typed.',
    )
    .action(async (options: KeyOption) => {
      const key = loadPublicKey(options.publicKey ?? '');
      const text = (await io.stdin()).trim();
      try {
        JSON.parse(text);
      } catch {
        throw new UsageError('stdin is not JSON: wire encrypt encrypts one JSON document (PROTOCOL §2.1).');
      }
      io.stdout(`${encryptBytes(Buffer.from(text, 'utf8'), key)}\n`);
    });
}

function registerDecrypt(wire: Command, io: CliIo): void {
  wire
    .command('decrypt')
    .description('Decrypt §2 ciphertext (base64) on stdin with a private key and print the JSON plaintext.')
    .requiredOption('--private-key <file>', 'private key file: PEM or base64 DER (the platform private key for a request)')
    .addHelpText(
      'after',
      '\nSurrounding white space on stdin is ignored. The plaintext is printed as decrypted, plus a line feed; control and ' +
        'text-direction characters inside strings are written as JSON escapes such as \\u202e (the same JSON value), tabs and carriage ' +
        'returns between tokens as spaces.',
    )
    .action(async (options: KeyOption) => {
      const key = loadPrivateKey(options.privateKey ?? '');
      const ciphertext = (await io.stdin()).trim();
      // CipherError (exit 2, with its reason) when the text is not §2 ciphertext for this key.
      const plaintext = decryptBytes(ciphertext, key);
      parsePlaintextJson(plaintext);
      io.stdout(`${safeJsonDocument(plaintext.toString('utf8'))}\n`);
    });
}

function addSigningOptions(command: Command): Command {
  return command
    .requiredOption('--timestamp <seconds>', 'the SVC-TIMESTAMP value: Unix seconds (PROTOCOL §4.1)')
    .requiredOption('--nonce <nonce>', 'the SVC-NONCE value: 16 to 64 of [A-Za-z0-9] (PROTOCOL §4.3)')
    .option('--strip-newline', 'remove exactly one trailing "\\n" from stdin (echo appends one; the signature covers exact bytes)')
    .addHelpText(
      'after',
      '\nThe body is read from stdin byte for byte: a trailing line feed (from echo or an editor) is part of it ' +
        'and changes the signature. Use printf %s, or --strip-newline.',
    );
}

function registerSign(wire: Command, io: CliIo): void {
  addSigningOptions(
    wire
      .command('sign')
      .description('Sign TIMESTAMP\\nNONCE\\nBODY (PROTOCOL §3.2) with a private key; BODY is stdin, exactly as given.')
      .requiredOption('--private-key <file>', 'private key file: PEM or base64 DER (the merchant private key for a request)'),
  ).action(async (options: KeyOption & SigningOptions) => {
    checkTimestampAndNonce(options);
    const key = loadPrivateKey(options.privateKey ?? '');
    const body = bodyFrom(await io.stdin(), options.stripNewline);
    io.stdout(`${signText(signingInput(options.timestamp, options.nonce, body), key)}\n`);
  });
}

function registerVerify(wire: Command, io: CliIo, setExitCode: (code: number) => void): void {
  addSigningOptions(
    wire
      .command('verify')
      .description('Verify an SVC-SIGN over TIMESTAMP\\nNONCE\\nBODY (PROTOCOL §3.2); BODY is stdin, exactly as given. Exit 0 valid, 1 not.')
      .requiredOption('--public-key <file>', 'public key file: PEM or base64 DER (the merchant public key for a request)')
      .requiredOption('--signature <base64>', 'the SVC-SIGN value: standard base64'),
  ).action(async (options: KeyOption & SigningOptions & { readonly signature: string }) => {
    checkTimestampAndNonce(options);
    const signature = options.signature.trim();
    if (signature.length === 0 || !STANDARD_BASE64.test(signature)) {
      throw new UsageError(
        '--signature is not standard base64 (PROTOCOL §3.1: alphabet + and /, = padding); a captured header may have been URL-encoded or cut.',
      );
    }
    const key = loadPublicKey(options.publicKey ?? '');
    const body = bodyFrom(await io.stdin(), options.stripNewline);
    if (!verifyText(signingInput(options.timestamp, options.nonce, body), signature, key)) {
      const newlineHint = options.stripNewline !== true && body.endsWith('\n') ? '; the body ends with a line feed: try --strip-newline' : '';
      throw new NegativeAnswer(
        `signature does not verify for this key, timestamp, nonce and ${Buffer.byteLength(body, 'utf8')}-byte body${newlineHint}.`,
      );
    }
    io.stdout('valid\n');
    setExitCode(EXIT_SUCCESS);
  });
}

export const registerWireCommands: CommandRegistrar = (program, io, setExitCode) => {
  // A bare `wire` is a usage error (exit 2): program.ts does that for every command group.
  const wire = program.command('wire').description('Diagnose the wire protocol (PROTOCOL §2, §3) on captured requests');
  registerEncrypt(wire, io);
  registerDecrypt(wire, io);
  registerSign(wire, io);
  registerVerify(wire, io, setExitCode);
};
