// Types of scripts/print-core-modules.mjs for the test that checks README.md's copy of the module map.
export declare function coreModuleGraphText(): string;
