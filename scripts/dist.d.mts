// Types of scripts/dist.mjs for the tests that import it (test/unit/main/installers.test.ts).
/** Everything the installers of `platform` for `archs` need that this machine lacks, in words (empty: all here). */
export function missingForDist(platform: 'linux' | 'win' | 'mac', archs: readonly ('x64' | 'arm64')[], electron?: () => string | null): string[];
