// The labels file reader (core/labels/jsonl.ts): a file saved with a UTF-8 byte order mark is read like one without
// (issue 23, item 10: it was refused as "line 1: not a JSON object"), and a mark anywhere else is still a problem.
import { describe, expect, it } from 'vitest';
import { parseLabelsFile } from '../../../electron/core/labels/jsonl';

const LINE = '{"type":"deposit","ref":"order-1","label":"rent May"}';

describe('parseLabelsFile', () => {
  it('skips a byte order mark at the start of the file', () => {
    expect(parseLabelsFile(`\uFEFF${LINE}\r\n`)).toEqual(parseLabelsFile(`${LINE}\n`));
    expect(parseLabelsFile(`\uFEFF${LINE}\n`)).toEqual({ lines: [{ type: 'deposit', ref: 'order-1', label: 'rent May', note: null }] });
  });

  it('still refuses a byte order mark that is not at the start, naming its line', () => {
    expect(parseLabelsFile(`${LINE}\n\uFEFF${LINE.replace('order-1', 'order-2')}\n`)).toEqual({ problems: [expect.stringMatching(/^line 2: /)] });
  });
});
