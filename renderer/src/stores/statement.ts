// useStatementStore: the period statement's form (calendar days, `to` inclusive, in a chosen IANA zone or the desk's
// reporting zone) and the last statement (statements/build), kept while the person looks at other screens; the CSV and
// PDF exports, and the accounting journals for Xero and QuickBooks Online, go through desktop methods with a save
// dialog, for the same period.
import { create } from 'zustand';
import { DEFAULT_REPORTING_TIME_ZONE, isoInZone, timeZoneProblem, type AccountingFormat, type PeriodStatement, type RequestOf } from '../../../electron/contract';
import { call, type ContractError } from '../api';
import { dateInputToMs } from '../format';
import { t } from '../i18n';
import { useSessionStore } from './session';

export interface StatementForm {
  /** "YYYY-MM-DD", both required. */
  readonly from: string;
  readonly to: string;
  /** An IANA zone name, or '' for the desk's reporting zone. */
  readonly timeZone: string;
}

function reportingZone(): string {
  return useSessionStore.getState().session?.reportingTimeZone ?? DEFAULT_REPORTING_TIME_ZONE;
}

/** This month so far, in the reporting zone. */
export function thisMonth(now: number = Date.now()): StatementForm {
  const today = isoInZone(now, reportingZone()).slice(0, 10);
  return { from: `${today.slice(0, 8)}01`, to: today, timeZone: '' };
}

/** The form as a request, or a sentence saying what to fix. */
export function statementRequest(form: StatementForm): RequestOf<'statements/build'> | string {
  const timeZone = form.timeZone.trim() === '' ? reportingZone() : form.timeZone.trim();
  const zoneProblem = timeZoneProblem(timeZone);
  if (zoneProblem !== null) return t('history.statement.error.timeZone', { problem: zoneProblem });
  const from = dateInputToMs(form.from, timeZone);
  const to = dateInputToMs(form.to, timeZone, true);
  if (from === null || to === null) return t('history.statement.error.period');
  if (from >= to) return t('history.statement.error.order');
  return { from, to, timeZone };
}

function refusal(message: string): ContractError {
  return { code: 'invalidInput', message };
}

/** Counts builds and resets, so an answer arriving after a reset is dropped. */
let generation = 0;

interface StatementStore {
  readonly form: StatementForm;
  readonly statement: PeriodStatement | null;
  readonly building: boolean;
  readonly error: ContractError | null;
  setForm(form: Partial<StatementForm>): void;
  build(): Promise<void>;
  exportCsv: () => ReturnType<typeof call<'desktop/exportStatementCsv'>>;
  exportPdf: () => ReturnType<typeof call<'desktop/exportStatementPdf'>>;
  /** The period's journals (the mapping file and where to save are asked with the system's dialogs). */
  exportAccounting: (format: AccountingFormat) => ReturnType<typeof call<'desktop/exportAccounting'>>;
  /** The period's offline auditor pack (docs/auditor-pack.md), saved where the system's dialog says. */
  exportAuditPack: () => ReturnType<typeof call<'desktop/exportAuditPack'>>;
  /** Forgets the statement (another profile, or the desk unlocked again). */
  reset(): void;
}

/** No period chosen yet: the section fills in this month when first shown (the reporting zone is known by then). */
export const NO_PERIOD: StatementForm = { from: '', to: '', timeZone: '' };

export const useStatementStore = create<StatementStore>()((set, get) => ({
  form: NO_PERIOD,
  statement: null,
  building: false,
  error: null,
  setForm(form) {
    set({ form: { ...get().form, ...form } });
  },
  async build() {
    const request = statementRequest(get().form);
    if (typeof request === 'string') {
      set({ error: refusal(request), statement: null });
      return;
    }
    const started = ++generation;
    set({ building: true, error: null });
    const result = await call('statements/build', request);
    if (started !== generation) return;
    if (result.ok) set({ statement: result.value, building: false });
    else set({ error: result.error, building: false, statement: null });
  },
  async exportCsv() {
    const request = statementRequest(get().form);
    return typeof request === 'string' ? { ok: false, error: refusal(request) } : call('desktop/exportStatementCsv', request);
  },
  async exportPdf() {
    const request = statementRequest(get().form);
    return typeof request === 'string' ? { ok: false, error: refusal(request) } : call('desktop/exportStatementPdf', request);
  },
  async exportAuditPack() {
    const request = statementRequest(get().form);
    return typeof request === 'string' ? { ok: false, error: refusal(request) } : call('desktop/exportAuditPack', request);
  },
  async exportAccounting(format) {
    const request = statementRequest(get().form);
    return typeof request === 'string' ? { ok: false, error: refusal(request) } : call('desktop/exportAccounting', { ...request, format });
  },
  reset() {
    generation += 1;
    set({ statement: null, building: false, error: null });
  },
}));
