// Draws the tray icon, resources/tray.png (32x32 RGBA): a deep-blue disc with three white bars, a stack of coins seen
// from the side, readable at tray size on light and dark panels. Run `node scripts/make-tray-icon.mjs` after changing
// the drawing; the PNG is committed (the app reads it at run time: electron/main/tray.ts trayIconPath).
import { writeFileSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';

const SIZE = 32;
const SAMPLES = 4; // per axis: 16 samples per pixel smooth the edges
const DISC = [0x1f, 0x4e, 0x79];
const BARS = [0xff, 0xff, 0xff];
const OUTPUT = resolve(import.meta.dirname, '../resources/tray.png');

/** What covers the point (x, y) in icon coordinates (0..32): 'bar', 'disc' or null. */
function paintAt(x, y) {
  const dx = x - 16;
  const dy = y - 16;
  if (dx * dx + dy * dy > 15.5 * 15.5) return null;
  // Three rounded bars, each 14 wide and 4 high, 2 apart, centred.
  for (const top of [8.5, 14, 19.5]) {
    const inside = x >= 9 && x <= 23 && y >= top && y <= top + 4;
    if (inside) {
      const cornerX = x < 11 ? 11 - x : x > 21 ? x - 21 : 0;
      const cornerY = y < top + 2 ? top + 2 - y : y > top + 2 ? y - top - 2 : 0;
      if (cornerX === 0 || cornerX * cornerX + cornerY * cornerY <= 4) return 'bar';
    }
  }
  return 'disc';
}

function pixels() {
  const rows = [];
  for (let py = 0; py < SIZE; py++) {
    const row = Buffer.alloc(1 + SIZE * 4); // filter byte 0 (none), then RGBA
    for (let px = 0; px < SIZE; px++) {
      let disc = 0;
      let bar = 0;
      for (let sy = 0; sy < SAMPLES; sy++) {
        for (let sx = 0; sx < SAMPLES; sx++) {
          const paint = paintAt(px + (sx + 0.5) / SAMPLES, py + (sy + 0.5) / SAMPLES);
          if (paint === 'disc') disc += 1;
          else if (paint === 'bar') bar += 1;
        }
      }
      const covered = disc + bar;
      const offset = 1 + px * 4;
      if (covered === 0) continue;
      for (let channel = 0; channel < 3; channel++) row[offset + channel] = Math.round((DISC[channel] * disc + BARS[channel] * bar) / covered);
      row[offset + 3] = Math.round((255 * covered) / (SAMPLES * SAMPLES));
    }
    rows.push(row);
  }
  return Buffer.concat(rows);
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

const header = Buffer.alloc(13);
header.writeUInt32BE(SIZE, 0);
header.writeUInt32BE(SIZE, 4);
header[8] = 8; // bit depth
header[9] = 6; // colour type RGBA
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', header),
  chunk('IDAT', deflateSync(pixels(), { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
mkdirSync(dirname(OUTPUT), { recursive: true });
writeFileSync(OUTPUT, png);
console.log(`wrote ${OUTPUT} (${png.length} bytes)`);
