// Types of eslint/core-modules.js (the module map of electron/core) for the tests that check it.
export interface CoreModule {
  readonly name: string;
  readonly owns: readonly string[];
  readonly dependsOn: readonly string[];
  readonly typesFrom?: readonly string[];
}
export declare const CORE_MODULES: readonly CoreModule[];
export declare const IMPORT_DEBTS: Readonly<Record<string, string>>;
export declare function coreModuleOf(coreRelative: string): string | null;
export declare function coreRelativePath(root: string, absolute: string): string | null;
