// The app icon and installer metadata electron-builder takes from resources/ (its buildResources folder): the SVG
// source, the 1024 px PNG, the ICO (PNG images, 16 to 256 px) and the ICNS (PNG-based types, 16 to 1024 px) read
// back from their own bytes, made together from the SVG (scripts/make-icons.mjs); and every file electron-builder.yml
// names exists.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const root = join(import.meta.dirname, '../../..');
const resources = join(root, 'resources');
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A PNG's size and colour type from its IHDR chunk (always the first one). */
function pngHeader(bytes: Buffer): { width: number; height: number; bitDepth: number; colorType: number } {
  expect(bytes.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
  expect(bytes.toString('ascii', 12, 16)).toBe('IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20), bitDepth: bytes.readUInt8(24), colorType: bytes.readUInt8(25) };
}

function read(name: string): Buffer {
  return readFileSync(join(resources, name));
}

describe('the icon files', () => {
  it('has an SVG source with nothing active in it', () => {
    const svg = read('icon.svg').toString('utf8');
    expect(svg).toMatch(/^<svg [^>]*viewBox="0 0 1024 1024"/);
    expect(svg).not.toMatch(/<script|href=|<foreignObject|url\((?!#)/i);
  });

  it('icon.png is 1024 x 1024, 8-bit RGBA (transparent around the rounded square)', () => {
    expect(pngHeader(read('icon.png'))).toEqual({ width: 1024, height: 1024, bitDepth: 8, colorType: 6 });
  });

  it('icon.ico holds PNG images of 16 to 256 px, each where its directory entry says', () => {
    const ico = read('icon.ico');
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2)]).toEqual([0, 1]);
    const count = ico.readUInt16LE(4);
    const sizes: number[] = [];
    for (let index = 0; index < count; index += 1) {
      const entry = 6 + 16 * index;
      const size = ico.readUInt8(entry) === 0 ? 256 : ico.readUInt8(entry);
      expect(ico.readUInt8(entry + 1) === 0 ? 256 : ico.readUInt8(entry + 1)).toBe(size);
      expect([ico.readUInt16LE(entry + 4), ico.readUInt16LE(entry + 6)]).toEqual([1, 32]);
      const length = ico.readUInt32LE(entry + 8);
      const offset = ico.readUInt32LE(entry + 12);
      expect(offset + length).toBeLessThanOrEqual(ico.length);
      expect(pngHeader(ico.subarray(offset, offset + length))).toMatchObject({ width: size, height: size });
      sizes.push(size);
    }
    expect(sizes).toEqual([16, 24, 32, 48, 64, 128, 256]);
  });

  it('icon.icns holds PNG-based types of 16 to 1024 px, its lengths adding up, its 1024 px image being icon.png', () => {
    const icns = read('icon.icns');
    expect(icns.toString('ascii', 0, 4)).toBe('icns');
    expect(icns.readUInt32BE(4)).toBe(icns.length);
    const EXPECTED: Record<string, number> = { icp4: 16, icp5: 32, icp6: 64, ic07: 128, ic08: 256, ic09: 512, ic10: 1024, ic11: 32, ic12: 64, ic13: 256, ic14: 512 };
    const found: Record<string, number> = {};
    let offset = 8;
    while (offset < icns.length) {
      const type = icns.toString('ascii', offset, offset + 4);
      const length = icns.readUInt32BE(offset + 4);
      expect(length).toBeGreaterThan(8);
      const image = icns.subarray(offset + 8, offset + length);
      const { width, height } = pngHeader(image);
      expect(width).toBe(height);
      found[type] = width;
      if (type === 'ic10') expect(image.equals(read('icon.png'))).toBe(true);
      offset += length;
    }
    expect(offset).toBe(icns.length);
    expect(found).toEqual(EXPECTED);
  });
});

describe('electron-builder.yml', () => {
  const config = parse(readFileSync(join(root, 'electron-builder.yml'), 'utf8')) as Record<string, unknown>;

  /** Every file the configuration names: icons, entitlements, extra resources, the AppArmor profile. */
  function namedFiles(value: unknown, key = ''): string[] {
    if (typeof value === 'string') return /icon|entitlements|^from$|appArmorProfile/i.test(key) ? [value] : [];
    if (Array.isArray(value)) return value.flatMap((item) => namedFiles(item, key));
    if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([child, item]) => namedFiles(item, child));
    return [];
  }

  it('takes its build resources from resources/ and names only files that exist there', () => {
    expect(config['directories']).toMatchObject({ buildResources: 'resources' });
    const files = namedFiles(config);
    expect(files).toEqual(expect.arrayContaining(['resources/icon.png', 'resources/icon.ico', 'resources/icon.icns', 'resources/entitlements.mac.plist', 'resources/linux/apparmor-profile.tpl']));
    for (const file of files) expect(existsSync(join(root, file)), file).toBe(true);
  });

  it('gives each platform its icon and installer metadata', () => {
    expect(config['linux']).toMatchObject({ icon: 'resources/icon.png', category: 'Office', desktop: { entry: { Name: 'Treasury Desk', Categories: 'Office;Finance;' } } });
    expect((config['linux'] as { desktop: { entry: { Comment: string } } }).desktop.entry.Comment).not.toBe('');
    expect(config['win']).toMatchObject({ icon: 'resources/icon.ico' });
    expect(config['nsis']).toMatchObject({ installerIcon: 'resources/icon.ico', uninstallerIcon: 'resources/icon.ico' });
    expect(config['mac']).toMatchObject({ icon: 'resources/icon.icns', category: 'public.app-category.finance', hardenedRuntime: true, entitlements: 'resources/entitlements.mac.plist' });
    expect(config['extraResources']).toEqual([
      { from: 'resources/icon.png', to: 'icon.png' },
      { from: 'resources/tray.png', to: 'tray.png' },
    ]);
  });

  it('asks macOS for no more than V8 needs', () => {
    const plist = read('entitlements.mac.plist').toString('utf8');
    expect([...plist.matchAll(/<key>([^<]+)<\/key>/g)].map((match) => match[1])).toEqual(['com.apple.security.cs.allow-jit']);
  });
});
