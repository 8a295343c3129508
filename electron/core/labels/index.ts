// The labels module's door: what the other core modules use of it (eslint/core-modules.js, layers/imports).
export { labelsHandlers, writeLabel } from './handlers';
export { type LabelLine, parseBookRef, signedImportLines, signedLabelSet } from './jsonl';
export { getLabel, labelledRefs, STORED_LABEL_TYPES, type StoredLabelType } from './labels-table';
