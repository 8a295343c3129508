// The flags that keep a Chromium started for one job (the CLI's PDF printing, the test harness) from phoning home or
// setting itself up. No imports: Playwright's config loads it through the harness, outside the app's module graph.
export const QUIET_CHROMIUM_FLAGS: readonly string[] = ['--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
