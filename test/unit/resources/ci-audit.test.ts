// The CI's dependency audit (issue 23, item 12): .npmrc no longer turns npm audit off, .ci/run audits the production
// dependencies as an informative step, and that step prints what the command said and never fails the run (a
// refusing registry, findings, or no answer all exit 0).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '..', '..', '..');
const STEP = join(ROOT, 'scripts', 'informative-step.sh');

function step(env: Record<string, string>, ...command: string[]): { status: number | null; out: string } {
  const run = spawnSync('bash', [STEP, 'probe', ...command], { encoding: 'utf8', env: { ...process.env, ...env } });
  return { status: run.status, out: run.stdout + run.stderr };
}

describe('the npm audit step', () => {
  it('.npmrc leaves npm audit on, and .ci/run runs npm audit --omit=dev through the informative step', () => {
    expect(readFileSync(join(ROOT, '.npmrc'), 'utf8')).not.toMatch(/^\s*audit\s*=\s*false/m);
    expect(readFileSync(join(ROOT, '.ci', 'run'), 'utf8')).toMatch(/^bash scripts\/informative-step\.sh "npm audit --omit=dev" bash scripts\/with-node\.sh npm audit --omit=dev$/m);
  });

  it('prints the findings of a failing command and goes on (exit 0)', () => {
    const run = step({}, 'bash', '-c', 'echo "npm warn audit 405 Method Not Allowed"; exit 1');
    expect(run.status).toBe(0);
    expect(run.out).toContain('npm warn audit 405 Method Not Allowed');
    expect(run.out).toMatch(/probe: exit 1: .*going on/);
  });

  it('goes on when the command does not answer in time, and says so', () => {
    const run = step({ INFORMATIVE_STEP_TIMEOUT: '1' }, 'sleep', '30');
    expect(run.status).toBe(0);
    expect(run.out).toContain('probe: no answer within 1 s; going on');
  });

  it('says when there is nothing to report', () => {
    const run = step({}, 'true');
    expect(run).toEqual({ status: 0, out: expect.stringContaining('probe: nothing to report') });
  });
});
