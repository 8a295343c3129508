// The period statement section (on the Reconciliation screen): a period of calendar days in a chosen time zone, then
// per currency the opening and closing balances, deposits, withdrawals, fees, refunds and the unexplained difference
// (statements/build), the unexplained findings (in the window's language, times in the statement's zone), the audit head
// it was made under, and CSV and PDF exports through a save dialog, with the period's journals for Xero and QuickBooks
// Online (docs/accounting.md) and its offline auditor pack (docs/auditor-pack.md). Balances follow the "Hide balances" setting.
import { useEffect, type FormEvent } from 'react';
import { isoInZone, type PeriodStatement, type PeriodStatementCurrency } from '../../../electron/contract';
import { Amount } from '../components/Amount';
import { BalanceAmount } from '../components/BalanceAmount';
import { useReportingTimeZone } from '../components/DateTime';
import { EngineText } from '../components/EngineText';
import { ErrorNotice } from '../components/ErrorNotice';
import { ExportButton } from '../components/ExportButton';
import { Field } from '../components/Field';
import { currencyLabel, formatDateTime } from '../format';
import { t } from '../i18n';
import { findingTextFor } from '../i18n/sentences';
import { thisMonth, useStatementStore } from '../stores/statement';

export function StatementSection(): React.JSX.Element {
  const statement = useStatementStore((state) => state.statement);
  const error = useStatementStore((state) => state.error);
  return (
    <section className="card" aria-labelledby="statement-title" data-testid="@statement/section">
      <h2 id="statement-title">{t('history.statement.title')}</h2>
      <StatementForm />
      <ErrorNotice error={error} testId="@statement/error" />
      {statement === null ? null : <StatementTable statement={statement} />}
      <div className="export-row">
        <ExportButton
          groupLabel={t('history.statement.csv.group')}
          label={t('history.export.csv')}
          action={() => useStatementStore.getState().exportCsv()}
          written={(value) => t('history.statement.csv.written', { count: value.currencies })}
          testId="@statement/csv"
        />
        <ExportButton
          groupLabel={t('history.statement.pdf.group')}
          label={t('history.statement.pdf.button')}
          action={() => useStatementStore.getState().exportPdf()}
          written={(value) => t('history.statement.pdf.written', { bytes: value.bytes })}
          testId="@statement/pdf"
        />
        <ExportButton
          groupLabel={t('history.statement.journals.group', { product: 'Xero' })}
          label={t('history.statement.journals.button', { product: 'Xero' })}
          action={() => useStatementStore.getState().exportAccounting('xero')}
          written={(value) => journalsWritten(value)}
          testId="@statement/xero"
        />
        <ExportButton
          groupLabel={t('history.statement.journals.group', { product: 'QuickBooks Online' })}
          label={t('history.statement.journals.button', { product: 'QuickBooks' })}
          action={() => useStatementStore.getState().exportAccounting('quickbooks')}
          written={(value) => journalsWritten(value)}
          testId="@statement/quickbooks"
        />
        <ExportButton
          groupLabel={t('history.statement.pack.group')}
          label={t('history.statement.pack.button')}
          action={() => useStatementStore.getState().exportAuditPack()}
          written={(value) => t('history.statement.pack.written', { count: value.rows, fingerprint: value.fingerprint })}
          testId="@statement/auditor-pack"
        />
      </div>
    </section>
  );
}

function journalsWritten(value: { readonly journals: number; readonly lines: number; readonly records: number }): string {
  return t('history.statement.journals.written', { journals: value.journals, lines: value.lines, records: value.records });
}

function StatementForm(): React.JSX.Element {
  const form = useStatementStore((state) => state.form);
  const building = useStatementStore((state) => state.building);
  const reportingZone = useReportingTimeZone();
  const set = useStatementStore.getState().setForm;
  useEffect(() => {
    const current = useStatementStore.getState().form;
    if (current.from === '' && current.to === '') set(thisMonth());
  }, [set]);
  function submit(event: FormEvent): void {
    event.preventDefault();
    void useStatementStore.getState().build();
  }
  return (
    <form className="filters" aria-label={t('history.statement.form.title')} onSubmit={submit}>
      <Field label={t('history.statement.form.firstDay')}>
        {(control) => <input {...control} className="input" type="date" required value={form.from} onChange={(event) => set({ from: event.target.value })} data-testid="@statement/from" />}
      </Field>
      <Field label={t('history.statement.form.lastDay')}>
        {(control) => <input {...control} className="input" type="date" required value={form.to} onChange={(event) => set({ to: event.target.value })} data-testid="@statement/to" />}
      </Field>
      <Field label={t('history.statement.form.timeZone')} hint={t('history.statement.form.timeZoneHint', { zone: reportingZone })}>
        {(control) => (
          <input {...control} className="input" type="text" spellCheck={false} placeholder={reportingZone} value={form.timeZone} onChange={(event) => set({ timeZone: event.target.value })} data-testid="@statement/zone" />
        )}
      </Field>
      <div className="filters__clear">
        <button type="submit" className="button button--primary" disabled={building} data-testid="@statement/build-button">
          {building ? t('history.statement.form.making') : t('history.statement.form.make')}
        </button>
      </div>
    </form>
  );
}

function Reading({ reading, currency, timeZone }: { readonly reading: PeriodStatementCurrency['opening']; readonly currency: string; readonly timeZone: string }): React.JSX.Element {
  if (reading === null) return <td className="num">—</td>;
  return (
    <td className="num">
      <BalanceAmount value={reading.available} currency={currency} />
      <br />
      <span className="muted small">{t('history.readAt', { time: isoInZone(reading.observedAt, timeZone, { separator: ' ' }) })}</span>
    </td>
  );
}

function StatementTable({ statement }: { readonly statement: PeriodStatement }): React.JSX.Element {
  const { timeZone } = statement;
  const unexplained = statement.findings.filter((finding) => !finding.explained).map((finding) => findingTextFor(finding, (ms) => formatDateTime(ms, timeZone)));
  return (
    <div role="status" aria-live="polite">
      <p className="small" data-testid="@statement/period">
        {t(statement.merchantName === null ? 'history.statement.period' : 'history.statement.periodMerchant', {
          from: isoInZone(statement.from, timeZone, { separator: ' ' }),
          to: isoInZone(statement.to, timeZone, { separator: ' ' }),
          zone: timeZone,
          merchant: statement.merchantName,
          profile: statement.profile,
        })}
      </p>
      {statement.currencies.length === 0 ? (
        <p className="muted">{t('history.statement.empty')}</p>
      ) : (
        <div className="table-wrap">
          <table className="table table--dense table--numbers" data-testid="@statement/table">
            <thead>
              <tr>
                <th scope="col">{t('history.word.currency')}</th>
                <th scope="col" className="num">{t('history.statement.column.opening')}</th>
                <th scope="col" className="num">{t('history.word.deposits')}</th>
                <th scope="col" className="num">{t('history.word.withdrawals')}</th>
                <th scope="col" className="num">{t('history.statement.column.fees')}</th>
                <th scope="col" className="num">{t('history.statement.column.refunds')}</th>
                <th scope="col" className="num">{t('history.statement.column.closing')}</th>
                <th scope="col" className="num">{t('history.statement.column.unexplained')}</th>
              </tr>
            </thead>
            <tbody>
              {statement.currencies.map((currency) => (
                <tr key={currency.currency} data-testid="@statement/row" data-currency={currency.currency} data-unexplained={currency.unexplained ?? ''}>
                  <th scope="row">{currencyLabel(currency.currency)}</th>
                  <Reading reading={currency.opening} currency={currency.currency} timeZone={timeZone} />
                  <td className="num"><Amount value={currency.deposits.amount} currency={currency.currency} /></td>
                  <td className="num"><Amount value={currency.withdrawals.amount} currency={currency.currency} /></td>
                  <td className="num"><Amount value={currency.withdrawalFees} currency={currency.currency} /></td>
                  <td className="num"><Amount value={currency.refunds.amount} currency={currency.currency} /></td>
                  <Reading reading={currency.closing} currency={currency.currency} timeZone={timeZone} />
                  <td className="num">{currency.unexplained === null ? '—' : <Amount value={currency.unexplained} currency={currency.currency} />}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {statement.withdrawals.length === 0 ? null : (
        <div className="table-wrap">
          <table className="table table--dense" data-testid="@statement/withdrawals">
            <caption>{t('history.statement.withdrawals.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('history.statement.withdrawals.column.created')}</th>
                <th scope="col" className="num">{t('history.word.amount')}</th>
                <th scope="col">{t('history.word.currency')}</th>
                <th scope="col">{t('history.statement.withdrawals.column.to')}</th>
                <th scope="col">{t('history.statement.withdrawals.column.payee')}</th>
                <th scope="col">{t('history.statement.withdrawals.column.status')}</th>
              </tr>
            </thead>
            <tbody>
              {statement.withdrawals.map((withdrawal) => (
                <tr key={withdrawal.request} data-testid="@statement/withdrawal" data-request={withdrawal.request}>
                  <td className="small">{isoInZone(withdrawal.at, timeZone, { separator: ' ' })}</td>
                  <td className="num"><Amount value={withdrawal.amount} currency={withdrawal.currency} /></td>
                  <td>{currencyLabel(withdrawal.currency)}</td>
                  <td className="mono small">{withdrawal.toAddress}</td>
                  <td data-testid="@statement/withdrawal-payee">{withdrawal.payee ?? <span className="muted">—</span>}</td>
                  <td>{withdrawal.orderStatus ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {unexplained.length === 0 ? null : (
        <ul className="small" data-testid="@statement/unexplained">
          {unexplained.map((text, index) => (
            <li key={index}>
              <EngineText language={text.language}>
                {text.summary} {text.explanation}
              </EngineText>
            </li>
          ))}
        </ul>
      )}
      <p className="small" data-testid="@statement/audit-head">
        {statement.auditHead === null
          ? t('history.statement.auditEmpty')
          : t('history.statement.auditHead', { seq: statement.auditHead.seq, fingerprint: statement.auditHead.fingerprint })}
      </p>
    </div>
  );
}
