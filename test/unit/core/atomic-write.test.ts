// The one way files are written (core/files/atomic-write.ts): whole or not at all, 0600, through an exclusive and
// unpredictable temporary name, never following a symlink planted at the target, leaving nothing behind on failure.
import { chmodSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { temporaryNameFor, writeFailureReason, writeFileAtomically } from '../../../electron/core/files/atomic-write';

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'td-atomic-'));
});
afterEach(() => {
  chmodSync(folder, 0o700);
  rmSync(folder, { recursive: true, force: true });
});

describe('writeFileAtomically', () => {
  it('writes text, bytes and chunks whole, 0600, and leaves no temporary file', () => {
    writeFileAtomically(join(folder, 'a.txt'), 'héllo\n');
    writeFileAtomically(join(folder, 'b.bin'), new Uint8Array([0, 1, 2, 255]));
    writeFileAtomically(join(folder, 'c.csv'), (append) => {
      for (let i = 0; i < 1000; i++) append(`${i},${'x'.repeat(100)}\n`);
    });
    expect(readFileSync(join(folder, 'a.txt'), 'utf8')).toBe('héllo\n');
    expect([...readFileSync(join(folder, 'b.bin'))]).toEqual([0, 1, 2, 255]);
    expect(readFileSync(join(folder, 'c.csv'), 'utf8').split('\n')).toHaveLength(1001);
    expect(statSync(join(folder, 'a.txt')).mode & 0o777).toBe(0o600);
    expect(readdirSync(folder).sort()).toEqual(['a.txt', 'b.bin', 'c.csv']);
  });

  it('names its temporary file unpredictably, beside the target', () => {
    const target = join(folder, 'export.csv');
    const names = new Set(Array.from({ length: 50 }, () => temporaryNameFor(target)));
    expect(names.size).toBe(50);
    for (const name of names) expect(name).toMatch(new RegExp(`^${folder}/\\.export\\.csv\\.[0-9a-f]{16}\\.partial$`));
  });

  it('replaces a symlink planted at the target instead of writing through it', () => {
    const victim = join(folder, 'bashrc');
    writeFileSync(victim, 'original\n');
    const target = join(folder, 'deposits.csv');
    symlinkSync(victim, target);
    writeFileAtomically(target, 'exported\n');
    expect(readFileSync(victim, 'utf8')).toBe('original\n');
    expect(lstatSync(target).isSymbolicLink()).toBe(false);
    expect(readFileSync(target, 'utf8')).toBe('exported\n');
  });

  it('keeps the old content and removes its temporary file when writing fails part way', () => {
    const target = join(folder, 'audit.jsonl');
    writeFileSync(target, 'old\n');
    expect(() =>
      writeFileAtomically(target, (append) => {
        append('half');
        throw new Error('the engine failed while exporting');
      }),
    ).toThrow('the engine failed while exporting');
    expect(readFileSync(target, 'utf8')).toBe('old\n');
    expect(readdirSync(folder)).toEqual(['audit.jsonl']);
  });

  it('refuses a missing folder and a read-only one, with a reason a person understands', () => {
    let missing: unknown;
    try {
      writeFileAtomically(join(folder, 'no-such-folder', 'x.csv'), 'x');
    } catch (error) {
      missing = error;
    }
    expect(writeFailureReason(missing)).toBe('the folder does not exist');
    if (process.getuid?.() !== 0) {
      chmodSync(folder, 0o500);
      let denied: unknown;
      try {
        writeFileAtomically(join(folder, 'x.csv'), 'x');
      } catch (error) {
        denied = error;
      }
      expect(writeFailureReason(denied)).toBe('permission denied');
    }
    expect(readdirSync(folder)).toEqual([]);
  });
});
