// Test harness only: how this project launches a browser — Debian's Chromium (Playwright's own download is impossible
// here) with flags that keep it from phoning home. Shared by playwright.config.ts and the UI benchmark.
export const CHROMIUM_PATH = '/usr/bin/chromium';
export const CHROMIUM_FLAGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
