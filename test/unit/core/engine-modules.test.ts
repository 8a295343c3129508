// The engine's modules in one list (core/kernel/modules.ts): dependency order whatever the list's order, unknown names
// and circles refused before anything is built, stop in the reverse of start, a failed start stops what had started,
// and one part failing to stop never keeps the others running.
import { describe, expect, it } from 'vitest';
import { dependencyOrder, startModules, type ModuleDefinition } from '../../../electron/core/kernel/modules';

function recorder() {
  const events: string[] = [];
  const define = (name: string, dependsOn: readonly string[], behaviour: { failStart?: boolean; failStop?: boolean; failCreate?: boolean } = {}): ModuleDefinition => ({
    name,
    dependsOn,
    create() {
      if (behaviour.failCreate) throw new Error(`${name} cannot be built`);
      events.push(`create ${name}`);
      return {
        async start() {
          await Promise.resolve();
          if (behaviour.failStart) throw new Error(`${name} cannot start`);
          events.push(`start ${name}`);
        },
        stop() {
          events.push(`stop ${name}`);
          if (behaviour.failStop) throw new Error(`${name} cannot stop`);
        },
      };
    },
  });
  return { events, define };
}

describe('engine modules', () => {
  it('builds each module after the ones it depends on, whatever the order of the list', () => {
    const { define } = recorder();
    const order = dependencyOrder([define('autoSync', ['sync']), define('sync', ['context']), define('context', ['database']), define('database', [])]);
    expect(order.map((module) => module.name)).toEqual(['database', 'context', 'sync', 'autoSync']);
  });

  it('keeps the list order between modules that do not depend on each other', () => {
    const { define } = recorder();
    expect(dependencyOrder([define('b', []), define('a', []), define('c', ['a'])]).map((module) => module.name)).toEqual(['b', 'a', 'c']);
  });

  it('refuses an unknown dependency, a circle and a name listed twice before building anything', async () => {
    const { events, define } = recorder();
    await expect(startModules([define('a', []), define('b', ['missing'])])).rejects.toThrow('b depends on missing, which is not listed');
    await expect(startModules([define('a', ['c']), define('b', ['a']), define('c', ['b'])])).rejects.toThrow('a circle a -> c -> b -> a');
    await expect(startModules([define('a', []), define('a', [])])).rejects.toThrow('a is listed twice');
    expect(events).toEqual([]);
  });

  it('starts in dependency order and stops in the reverse, once however often it is asked', async () => {
    const { events, define } = recorder();
    const started = await startModules([define('watchdog', ['context']), define('database', []), define('context', ['database'])]);
    expect(started.order).toEqual(['database', 'context', 'watchdog']);
    await Promise.all([started.stop(), started.stop()]);
    await started.stop();
    expect(events).toEqual(['create database', 'start database', 'create context', 'start context', 'create watchdog', 'start watchdog', 'stop watchdog', 'stop context', 'stop database']);
  });

  it('stops what had started, in reverse, when a module fails to start (the failing one too), and rethrows', async () => {
    const { events, define } = recorder();
    await expect(startModules([define('database', []), define('context', ['database']), define('team', ['context'], { failStart: true }), define('later', ['team'])])).rejects.toThrow(
      'team cannot start',
    );
    expect(events).toEqual(['create database', 'start database', 'create context', 'start context', 'create team', 'stop team', 'stop context', 'stop database']);
  });

  it('stops what had started when a module cannot even be built', async () => {
    const { events, define } = recorder();
    await expect(startModules([define('database', []), define('audit', ['database'], { failCreate: true })])).rejects.toThrow('audit cannot be built');
    expect(events).toEqual(['create database', 'start database', 'stop database']);
  });

  it('goes on stopping the others when one fails to stop', async () => {
    const { events, define } = recorder();
    const started = await startModules([define('database', []), define('callbacks', ['database'], { failStop: true }), define('autoSync', ['database'])]);
    await started.stop();
    expect(events.filter((event) => event.startsWith('stop'))).toEqual(['stop autoSync', 'stop callbacks', 'stop database']);
  });
});
