#!/usr/bin/env node
// Installed command: runs the CLI bundle built by `npm run build` (out/main/cli.js).
import('../out/main/cli.js').catch((error) => {
  process.stderr.write(`treasury-desk: the CLI is not built (${error.message}); run "npm run build" first.\n`);
  process.exitCode = 2;
});
