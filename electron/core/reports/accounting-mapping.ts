// Reads the account mapping of the accounting exports (docs/accounting.md): a small CSV the user writes, with the
// columns kind,key,account: each currency's asset account, a label's income or expense account, the clearing account
// (records without a mapped label), the fees account, and Xero's tax rate. Pure.
// Invariant: a mapping with any bad line is refused whole, every bad line named by its file line number.
import { parse } from 'csv-parse/sync';
import { z } from 'zod';
import { ACCOUNT_MAPPING_MAX_CHARS, unsafeTextProblem } from '../../contract';
import { DeskError } from '../kernel/errors';

/** QuickBooks Online's account names are at most 100 characters; Xero's codes are shorter. */
const ACCOUNT_MAX_CHARS = 100;
/** Xero's tax rate when the mapping names none (its name for "no tax" in most regions). */
export const DEFAULT_XERO_TAX_RATE = 'Tax Exempt';

const MAPPING_COLUMNS = ['kind', 'key', 'account'] as const;
const MAPPING_KINDS = ['currency', 'label', 'clearing', 'fees', 'taxrate'] as const;
type MappingKind = (typeof MAPPING_KINDS)[number];
const KEYED: ReadonlySet<MappingKind> = new Set(['currency', 'label']);

const text = (what: string) =>
  z
    .string()
    .trim()
    .min(1, `${what} is empty`)
    .max(ACCOUNT_MAX_CHARS, `${what} is longer than ${ACCOUNT_MAX_CHARS} characters`)
    .superRefine((value, context) => {
      const problem = unsafeTextProblem(value, what);
      if (problem !== null) context.addIssue({ code: 'custom', message: problem });
    });

const mappingLine = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('currency'), key: text('the currency').transform((value) => value.toLowerCase()), account: text('the account') }),
  z.strictObject({ kind: z.literal('label'), key: text('the label').transform((value) => value.toLowerCase()), account: text('the account') }),
  z.strictObject({ kind: z.literal('clearing'), key: z.literal('', { error: 'the clearing line takes no key: leave the key empty' }), account: text('the account') }),
  z.strictObject({ kind: z.literal('fees'), key: z.literal('', { error: 'the fees line takes no key: leave the key empty' }), account: text('the account') }),
  z.strictObject({ kind: z.literal('taxrate'), key: z.literal('', { error: 'the taxrate line takes no key: leave the key empty' }), account: text('the tax rate') }),
]);

export interface AccountMapping {
  /** Asset account per currency symbol (lower case). */
  readonly currencies: ReadonlyMap<string, string>;
  /** Income or expense account per label (lower case). */
  readonly labels: ReadonlyMap<string, string>;
  readonly clearing: string;
  readonly fees: string;
  readonly xeroTaxRate: string;
}

const HELP = 'the first line is "kind,key,account", then one line per account: currency,<symbol>,<account>; label,<label>,<account>; clearing,,<account>; fees,,<account>; optionally taxrate,,<Xero tax rate>';

function refuse(problems: readonly string[]): never {
  const shown = problems.slice(0, 20).join('; ');
  const more = problems.length > 20 ? `; and ${problems.length - 20} more` : '';
  throw new DeskError('invalidInput', `the account mapping is not usable, nothing was exported: ${shown}${more}. Correct the file (${HELP}) and export again`, {
    mapping: problems[0] ?? 'is not usable',
  });
}

/** The mapping the file's text describes, or a DeskError naming every bad line (nothing is exported then). */
export function parseAccountMapping(source: string): AccountMapping {
  if (source.length > ACCOUNT_MAPPING_MAX_CHARS) refuse([`the file is larger than ${ACCOUNT_MAPPING_MAX_CHARS / 1024} KiB; a mapping is a few lines`]);
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(source, { bom: true, info: true, skip_empty_lines: true, relax_column_count: true }) as unknown as typeof records;
  } catch (error) {
    const line = (error as { lines?: unknown }).lines;
    refuse([`the file is not readable CSV${typeof line === 'number' ? ` at line ${line}` : ''}: save it again as CSV (UTF-8)`]);
  }
  const [head, ...body] = records;
  if (head === undefined) refuse(['the file is empty']);
  const header = head.record.map((cell) => cell.trim().toLowerCase());
  if (header.length !== MAPPING_COLUMNS.length || MAPPING_COLUMNS.some((column, index) => header[index] !== column)) {
    refuse([`line ${head.info.lines}: the header must be "kind,key,account", not ${JSON.stringify(head.record.join(',').slice(0, 60))}`]);
  }

  const problems: string[] = [];
  const seen = new Map<string, number>();
  const currencies = new Map<string, string>();
  const labels = new Map<string, string>();
  const singles = new Map<MappingKind, string>();
  for (const { record, info } of body) {
    const line = info.lines;
    if (record.length !== MAPPING_COLUMNS.length) {
      problems.push(`line ${line}: has ${record.length} cells, expected 3 (kind,key,account)`);
      continue;
    }
    const [kind = '', key = '', account = ''] = record;
    const kindText = kind.trim().toLowerCase();
    if (!(MAPPING_KINDS as readonly string[]).includes(kindText)) {
      problems.push(`line ${line}: the kind ${JSON.stringify(kind.slice(0, 30))} is not one of ${MAPPING_KINDS.join(', ')}`);
      continue;
    }
    const parsed = mappingLine.safeParse({ kind: kindText, key: key.trim(), account });
    if (!parsed.success) {
      problems.push(`line ${line}: ${parsed.error.issues.map((issue) => issue.message).join(', ')}`);
      continue;
    }
    const entry = parsed.data;
    const identity = KEYED.has(entry.kind) ? `${entry.kind} ${entry.key}` : entry.kind;
    const earlier = seen.get(identity);
    if (earlier !== undefined) {
      problems.push(`line ${line}: repeats the ${identity} of line ${earlier}: keep one`);
      continue;
    }
    seen.set(identity, line);
    switch (entry.kind) {
      case 'currency':
        currencies.set(entry.key, entry.account);
        break;
      case 'label':
        labels.set(entry.key, entry.account);
        break;
      case 'clearing':
      case 'fees':
      case 'taxrate':
        singles.set(entry.kind, entry.account);
        break;
      default: {
        const never: never = entry;
        throw new Error(`unknown mapping line ${JSON.stringify(never)}`);
      }
    }
  }
  const clearing = singles.get('clearing');
  const fees = singles.get('fees');
  if (problems.length === 0 && clearing === undefined) problems.push('no clearing account: add a line "clearing,,<account>" (records without a mapped label go there)');
  if (problems.length === 0 && fees === undefined) problems.push('no fees account: add a line "fees,,<account>"');
  if (problems.length > 0 || clearing === undefined || fees === undefined) refuse(problems);
  return { currencies, labels, clearing, fees, xeroTaxRate: singles.get('taxrate') ?? DEFAULT_XERO_TAX_RATE };
}
