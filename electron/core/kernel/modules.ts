// The engine's running parts as modules in one list (ARCHITECTURE.md "Modules in one list", after Trezor Suite's
// suite-desktop-core modules): each names the modules it needs, is built once they are, started in that order and
// stopped in the reverse. Invariant: whatever started is stopped, also when a later module fails to start, and a
// part that fails to stop never keeps the others (or the database) open.
import { appLog } from '../log';

/** What a built module does while the engine runs; both optional (a module may only be stopped, or neither). */
export interface RunningModule {
  start?(): void | Promise<void>;
  stop?(): void | Promise<void>;
}

export interface ModuleDefinition {
  /** The module's name, as other modules' `dependsOn` names it. */
  readonly name: string;
  /** Modules that must be built and started before this one (and stopped after it). */
  readonly dependsOn: readonly string[];
  /** Builds the module from the parts built before it (the engine's closure holds them); nothing runs until start. */
  create(): RunningModule | Promise<RunningModule>;
}

/** The definitions in an order where each comes after everything it depends on; refuses unknown names and circles. */
export function dependencyOrder<D extends ModuleDefinition>(definitions: readonly D[]): D[] {
  const byName = new Map<string, D>();
  for (const definition of definitions) {
    if (byName.has(definition.name)) throw new Error(`engine modules: ${definition.name} is listed twice`);
    byName.set(definition.name, definition);
  }
  const ordered: D[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (definition: D, path: readonly string[]): void => {
    const seen = state.get(definition.name);
    if (seen === 'done') return;
    if (seen === 'visiting') throw new Error(`engine modules: a circle ${[...path, definition.name].join(' -> ')}`);
    state.set(definition.name, 'visiting');
    for (const name of definition.dependsOn) {
      const dependency = byName.get(name);
      if (dependency === undefined) throw new Error(`engine modules: ${definition.name} depends on ${name}, which is not listed`);
      visit(dependency, [...path, definition.name]);
    }
    state.set(definition.name, 'done');
    ordered.push(definition);
  };
  // the list's own order decides between modules that do not depend on each other
  for (const definition of definitions) visit(definition, []);
  return ordered;
}

/** Modules that were started, stopped together in the reverse order. */
export interface StartedModules {
  /** The names in the order they started. */
  readonly order: readonly string[];
  stop(): Promise<void>;
}

async function stopAll(started: readonly { readonly name: string; readonly running: RunningModule }[]): Promise<void> {
  for (const { name, running } of [...started].reverse()) {
    try {
      await running.stop?.();
    } catch (error) {
      // the next parts still stop: one part failing must not keep the database or a port open
      appLog.error(`engine: module ${name} failed to stop`, { module: name, error });
    }
  }
}

/**
 * Builds and starts the modules in dependency order. When one fails to build or start, stops those built so far (the
 * failing one too when it was built: a stop must be safe after a partial start) in reverse, and rethrows.
 */
export async function startModules(definitions: readonly ModuleDefinition[]): Promise<StartedModules> {
  const started: { readonly name: string; readonly running: RunningModule }[] = [];
  for (const definition of dependencyOrder(definitions)) {
    try {
      const running = await definition.create();
      started.push({ name: definition.name, running });
      await running.start?.();
    } catch (error) {
      await stopAll(started);
      throw error;
    }
  }
  let stopping: Promise<void> | null = null;
  return {
    order: started.map((module) => module.name),
    stop: () => (stopping ??= stopAll(started)),
  };
}
