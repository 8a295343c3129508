#!/usr/bin/env node
// Makes the app icons electron-builder packages (its buildResources folder, resources/) from resources/icon.svg:
// icon.png (1024x1024, Linux and the About panel), icon.ico (Windows: PNG images in an ICO container, 16 to 256 px)
// and icon.icns (macOS: PNG-based icns types, 16 to 1024 px). Each size is rendered from the SVG by the Chromium the
// tests use (test/harness/chromium.ts), not scaled from another size; the ICO and ICNS containers are written here.
// Run after changing the SVG, and commit the results:  node scripts/make-icons.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const resources = join(root, 'resources');
// The same browser and flags as test/harness/chromium.ts (a .ts module, which plain Node cannot import).
const CHROMIUM_PATH = '/usr/bin/chromium';
const CHROMIUM_FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];

/** ICO images: 256 is stored as width/height 0 (the format's one byte cannot say 256). */
const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256];
/** ICNS types holding PNG data, and their pixel sizes (the @2x types are the doubled size). */
const ICNS_TYPES = [
  ['icp4', 16],
  ['icp5', 32],
  ['icp6', 64],
  ['ic07', 128],
  ['ic08', 256],
  ['ic09', 512],
  ['ic10', 1024],
  ['ic11', 32],
  ['ic12', 64],
  ['ic13', 256],
  ['ic14', 512],
];

async function renderSizes(svg, sizes) {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
  try {
    const page = await browser.newPage({ deviceScaleFactor: 1 });
    const images = new Map();
    for (const size of sizes) {
      await page.setViewportSize({ width: size, height: size });
      const sized = svg.replace(/<svg([^>]*?)\swidth="\d+"\sheight="\d+"/, `<svg$1 width="${size}" height="${size}"`);
      await page.setContent(`<!doctype html><html><head><style>html,body{margin:0;background:transparent}svg{display:block}</style></head><body>${sized}</body></html>`);
      images.set(size, await page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } }));
    }
    return images;
  } finally {
    await browser.close();
  }
}

function ico(images) {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2); // 1 = icon
  header.writeUInt16LE(ICO_SIZES.length, 4);
  const entries = [];
  const bodies = [];
  let offset = 6 + 16 * ICO_SIZES.length;
  for (const size of ICO_SIZES) {
    const png = images.get(size);
    const entry = Buffer.alloc(16);
    entry.writeUInt8(size >= 256 ? 0 : size, 0);
    entry.writeUInt8(size >= 256 ? 0 : size, 1);
    entry.writeUInt8(0, 2); // no palette
    entry.writeUInt8(0, 3);
    entry.writeUInt16LE(1, 4); // colour planes
    entry.writeUInt16LE(32, 6); // bits per pixel
    entry.writeUInt32LE(png.length, 8);
    entry.writeUInt32LE(offset, 12);
    entries.push(entry);
    bodies.push(png);
    offset += png.length;
  }
  return Buffer.concat([header, ...entries, ...bodies]);
}

function icns(images) {
  const chunks = ICNS_TYPES.map(([type, size]) => {
    const png = images.get(size);
    const head = Buffer.alloc(8);
    head.write(type, 0, 'ascii');
    head.writeUInt32BE(png.length + 8, 4);
    return Buffer.concat([head, png]);
  });
  const body = Buffer.concat(chunks);
  const head = Buffer.alloc(8);
  head.write('icns', 0, 'ascii');
  head.writeUInt32BE(body.length + 8, 4);
  return Buffer.concat([head, body]);
}

const svg = readFileSync(join(resources, 'icon.svg'), 'utf8');
const sizes = [...new Set([1024, ...ICO_SIZES, ...ICNS_TYPES.map(([, size]) => size)])].sort((a, b) => a - b);
const images = await renderSizes(svg, sizes);
writeFileSync(join(resources, 'icon.png'), images.get(1024));
writeFileSync(join(resources, 'icon.ico'), ico(images));
writeFileSync(join(resources, 'icon.icns'), icns(images));
console.log(`wrote resources/icon.png, icon.ico (${ICO_SIZES.join(', ')} px), icon.icns (${ICNS_TYPES.map(([type]) => type).join(', ')})`);
