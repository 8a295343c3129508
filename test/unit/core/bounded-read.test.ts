// The one way the desk reads a file it is pointed at (core/files/bounded-read.ts, issue 23 item 7): a FIFO without a
// writer and a device such as /dev/zero are refused at once, a folder and an oversized file before a byte is read,
// a file of exactly the bound is read whole, and the text reader drops a BOM and refuses what is not UTF-8.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileReadError, readRegularFile, readRegularTextFile } from '../../../electron/core/files/bounded-read';
import { readTextFileArgument } from '../../../electron/cli/io';

const dir = mkdtempSync(join(tmpdir(), 'td-bounded-read-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function failure(read: () => unknown): FileReadError {
  try {
    read();
  } catch (error) {
    if (error instanceof FileReadError) return error;
    throw error;
  }
  throw new Error('the read did not fail');
}

describe('readRegularFile', () => {
  it('refuses a FIFO with no writer at once instead of waiting for one', () => {
    const fifo = join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    // The read is synchronous: a blocking open would never return, and the test would time out instead.
    expect(failure(() => readRegularFile(fifo, 1024))).toMatchObject({ code: 'notRegular', reason: expect.stringMatching(/^is not a regular file/) });
  });

  it('refuses /dev/zero, a folder, a missing file and a file over the bound without reading it', () => {
    expect(failure(() => readRegularFile('/dev/zero', 1024)).code).toBe('notRegular');
    mkdirSync(join(dir, 'folder'));
    expect(failure(() => readRegularFile(join(dir, 'folder'), 1024)).code).toBe('notRegular');
    expect(failure(() => readRegularFile(join(dir, 'nothing'), 1024)).code).toBe('missing');
    writeFileSync(join(dir, 'big'), Buffer.alloc(2049, 0x61));
    expect(failure(() => readRegularFile(join(dir, 'big'), 2048))).toMatchObject({ code: 'tooLarge', reason: 'is 2 KB; at most 2 KB are read' });
  });

  it('reads a file of exactly the bound whole, with its mode', () => {
    const bytes = Buffer.alloc(200_000, 0x62);
    writeFileSync(join(dir, 'exact'), bytes, { mode: 0o600 });
    const read = readRegularFile(join(dir, 'exact'), bytes.length);
    expect(read.bytes.equals(bytes)).toBe(true);
    expect(read.mode & 0o777).toBe(0o600);
  });
});

describe('readRegularTextFile and the CLI file arguments', () => {
  it('drops a BOM, and refuses bytes that are not UTF-8', () => {
    writeFileSync(join(dir, 'bom.txt'), '\uFEFFhello');
    expect(readRegularTextFile(join(dir, 'bom.txt'), 100)).toBe('hello');
    writeFileSync(join(dir, 'latin1.txt'), Buffer.from([0x68, 0xe9]));
    expect(failure(() => readRegularTextFile(join(dir, 'latin1.txt'), 100)).code).toBe('notUtf8');
  });

  it('a key file argument that is /dev/zero is bad input naming why', () => {
    expect(() => readTextFileArgument('/dev/zero', 'private key')).toThrow(/^private key file \/dev\/zero: is not a regular file/);
  });
});
