// Types of eslint/core-modules.js (the module map of electron/core) for the tests that check it.
export interface CoreModule {
  readonly name: string;
  readonly owns: readonly string[];
  readonly dependsOn: readonly string[];
}
export declare const CORE_MODULES: readonly CoreModule[];
export declare function coreModuleOf(coreRelative: string): string | null;
export declare function coreRelativePath(root: string, absolute: string): string | null;
export declare function moduleEntry(module: CoreModule): string | null;
