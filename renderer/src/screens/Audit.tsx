// Audit log: every signed statement and system event in a hash chain, as the audit viewer shows it (audit/list pages
// under filters by operator, kind, request and time, and a search; each row one sentence and whether its signature and
// chain link verify, as a word with an icon), the head's fingerprint (audit/head), chain verification naming the first
// altered row and why (audit/verify), checkpoints written to a file the team keeps elsewhere and verification against
// one (audit/checkpoint, audit/verify against), and the export of the filtered view (CSV or JSON lines).
import { useEffect, useState } from 'react';
import { AUDIT_ACTIONS, auditDetailsText, type AuditEntryView, type AuditRowVerification } from '../../../electron/contract';
import { DateTime, useReportingTimeZone } from '../components/DateTime';
import { engineTextLang } from '../components/EngineText';
import { ErrorNotice } from '../components/ErrorNotice';
import { ExportButton } from '../components/ExportButton';
import { Field } from '../components/Field';
import { Select } from '../components/Select';
import { useFileAction } from '../file-action';
import { Fingerprint } from '../components/Fingerprint';
import { shorten } from '../format';
import { t, tRich, type MessageId } from '../i18n';
import { auditActionLabelFor, auditSentenceFor } from '../i18n/sentences';
import { useDebounced } from '../hooks';
import { EMPTY_AUDIT_FILTERS, useAuditStore } from '../stores/audit';

const STANDING: Readonly<Record<AuditRowVerification['status'], { readonly icon: string; readonly word: MessageId; readonly badge: string }>> = {
  verified: { icon: '✓', word: 'history.audit.standing.verified', badge: 'badge--good' },
  failed: { icon: '✗', word: 'history.audit.standing.failed', badge: 'badge--bad' },
  unchecked: { icon: '?', word: 'history.audit.standing.unchecked', badge: 'badge--warn' },
};

/** Whether the row verifies: an icon and a word (never a colour alone), the reason on hover and for screen readers. */
function Standing({ verification }: { readonly verification: AuditRowVerification }): React.JSX.Element {
  const shown = STANDING[verification.status];
  const reason = verification.status === 'verified' ? t('history.audit.standing.verifiedReason') : verification.reason;
  return (
    <span className={`badge ${shown.badge}`} title={reason} data-testid="@audit/row-standing" data-status={verification.status}>
      <span aria-hidden="true">{shown.icon}</span> {t(shown.word)}
      <span className="visually-hidden">: {reason}</span>
    </span>
  );
}

/** A detail's value as one line: text as it is, anything else as compact JSON (escaped either way). */
function detailValue(value: unknown): string {
  return typeof value === 'string' ? value : auditDetailsText(value);
}

/** The row's signed details, subject and key, folded away under its sentence: one "name: value" line each, marked as the engine's English. */
function RowDetails({ entry }: { readonly entry: AuditEntryView }): React.JSX.Element {
  const details = entry.details !== null && typeof entry.details === 'object' && !Array.isArray(entry.details) ? Object.entries(entry.details as Record<string, unknown>) : [[t('history.audit.details.details'), entry.details] as const];
  const pairs: (readonly [string, string])[] = [
    ...(entry.subject === null ? [] : [[t('history.audit.details.subject'), entry.subject] as const]),
    [t('history.audit.details.signedBy'), entry.keyFingerprint],
    ...(entry.profile === null ? [] : [[t('history.audit.details.profile'), entry.profile] as const]),
    ...details.map(([name, value]) => [name, detailValue(value)] as const),
  ];
  return (
    <details className="audit-details">
      <summary>{t('history.word.details')}</summary>
      <dl className="audit-details__list">
        {pairs.map(([name, value]) => (
          <div key={name}>
            <dt>{name}</dt>
            {/* The signed record as the engine wrote it (a request's warnings are its English words). */}
            <dd className="mono" lang={engineTextLang()}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
    </details>
  );
}

/** The viewer's filters: operator, kind, request, dates (reporting zone) and a search over sentences and details. */
function AuditFilters(): React.JSX.Element {
  const filters = useAuditStore((state) => state.filters);
  const timeZone = useReportingTimeZone();
  const [typed, setTyped] = useState({ operator: filters.operator, request: filters.request, search: filters.search });
  const debounced = useDebounced(typed, 300);
  useEffect(() => {
    const current = useAuditStore.getState().filters;
    if (debounced.operator !== current.operator || debounced.request !== current.request || debounced.search !== current.search) void useAuditStore.getState().setFilters(debounced);
  }, [debounced]);
  const set = (partial: Parameters<ReturnType<typeof useAuditStore.getState>['setFilters']>[0]): void => void useAuditStore.getState().setFilters(partial);
  const actions: readonly string[] = ['', ...AUDIT_ACTIONS];
  return (
    <form className="filters filters--audit" role="search" aria-label={t('history.audit.filter.title')} onSubmit={(event) => event.preventDefault()}>
      <Field label={t('history.audit.filter.operator')}>
        {(control) => <input {...control} className="input" type="search" value={typed.operator} onChange={(event) => setTyped({ ...typed, operator: event.target.value })} placeholder={t('history.example', { example: t('history.audit.filter.operatorExample') })} data-testid="@audit/operator-filter" />}
      </Field>
      <Field label={t('history.word.kind')}>
        {(control) => (
          <Select control={control} value={filters.action} options={actions} label={(action) => (action === '' ? t('history.audit.filter.everyKind') : auditActionLabelFor(action))} onChange={(action) => set({ action })} testId="@audit/action-filter" />
        )}
      </Field>
      <Field label={t('history.audit.filter.request')}>
        {(control) => (
          <input {...control} className="input input--mono" type="search" value={typed.request} onChange={(event) => setTyped({ ...typed, request: event.target.value })} placeholder={t('history.example', { example: t('history.audit.filter.requestExample') })} data-testid="@audit/request-filter" />
        )}
      </Field>
      <Field label={t('history.filter.fromDate', { zone: timeZone })}>
        {(control) => <input {...control} className="input" type="date" value={filters.from} onChange={(event) => set({ from: event.target.value })} data-testid="@audit/from" />}
      </Field>
      <Field label={t('history.filter.toDate', { zone: timeZone })}>
        {(control) => <input {...control} className="input" type="date" value={filters.to} onChange={(event) => set({ to: event.target.value })} data-testid="@audit/to" />}
      </Field>
      <Field label={t('history.audit.filter.search')} className="filters__search">
        {(control) => (
          <input {...control} className="input" type="search" value={typed.search} onChange={(event) => setTyped({ ...typed, search: event.target.value })} placeholder={t('history.example', { example: t('history.audit.filter.searchExample') })} data-testid="@audit/search" data-search-box="" />
        )}
      </Field>
      <div className="filters__clear">
        <button
          type="button"
          className="button"
          onClick={() => {
            setTyped({ operator: '', request: '', search: '' });
            set(EMPTY_AUDIT_FILTERS);
          }}
          data-testid="@audit/clear-filters"
        >
          {t('history.word.clearFilters')}
        </button>
      </div>
    </form>
  );
}

export function Audit(): React.JSX.Element {
  const entries = useAuditStore((state) => state.entries);
  const nextCursor = useAuditStore((state) => state.nextCursor);
  const loading = useAuditStore((state) => state.loading);
  const error = useAuditStore((state) => state.error);
  const verification = useAuditStore((state) => state.verification);
  const verifying = useAuditStore((state) => state.verifying);
  const verifyError = useAuditStore((state) => state.verifyError);
  const verifiedAgainst = useAuditStore((state) => state.verifiedAgainst);
  const head = useAuditStore((state) => state.head);
  const filters = useAuditStore((state) => state.filters);
  useEffect(() => {
    void useAuditStore.getState().load();
    void useAuditStore.getState().loadHead();
  }, []);
  const badSeq = verification !== null && !verification.ok ? verification.firstBadSeq : null;
  useEffect(() => {
    if (badSeq !== null) document.querySelector(`[data-seq="${badSeq}"]`)?.scrollIntoView({ block: 'center' });
  }, [badSeq, entries]);
  return (
    <>
      <section className="card" aria-labelledby="audit-verify-title">
        <div className="card__head">
          <h2 id="audit-verify-title">{t('history.audit.integrity.title')}</h2>
          <button type="button" className="button button--primary" disabled={verifying} onClick={() => void useAuditStore.getState().verify()} data-testid="@audit/verify-button">
            {verifying ? t('history.audit.integrity.verifying') : t('history.audit.integrity.verify')}
          </button>
        </div>
        <p className="muted">{t('history.audit.integrity.about')}</p>
        {head === null ? (
          <p className="muted" data-testid="@audit/head-empty">
            {t('history.audit.integrity.empty')}
          </p>
        ) : (
          <Fingerprint
            label={t('history.audit.head.label', { seq: head.seq })}
            value={head.fingerprint}
            compare={t('history.audit.head.compare')}
            testId="@audit/head-fingerprint"
          />
        )}
        <div aria-live="polite">
          <ErrorNotice error={verifyError} testId="@audit/verify-error" />
          {verification === null ? null : verification.ok ? (
            <div className="notice notice--ok" data-testid="@audit/verify-result" data-ok="true">
              <p className="notice__title">{t('history.audit.verify.intact', { count: verification.rows })}</p>
              {verification.checkpoint === 'matched' ? (
                <p data-testid="@audit/verify-checkpoint">
                  {tRich('history.audit.verify.checkpointMatches', { file: verifiedAgainst === null ? '' : <code>{verifiedAgainst}</code> })}
                </p>
              ) : null}
              {verification.legacyRows > 0 ? (
                <p className="notice__detail">
                  {t('history.audit.verify.legacy', { count: verification.legacyRows })}
                </p>
              ) : null}
              <p className="notice__detail">
                {verification.anchored ? t('history.audit.verify.anchored') : t('history.audit.verify.notAnchored')}
              </p>
            </div>
          ) : (
            <div className="notice notice--error" data-testid="@audit/verify-result" data-ok="false" data-first-bad-seq={verification.firstBadSeq}>
              <p className="notice__title">{verifiedAgainst === null ? t('history.audit.verify.altered') : t('history.audit.verify.alteredAgainst')}</p>
              <p>
                {tRich('history.audit.verify.firstBad', {
                  seq: <strong data-testid="@audit/first-bad-seq">#{verification.firstBadSeq}</strong>,
                  reason: <span data-testid="@audit/verify-reason">{verification.reason}</span>,
                })}
              </p>
              <p>
                {verifiedAgainst === null
                  ? t('history.audit.verify.checked', { count: verification.rows })
                  : tRich('history.audit.verify.checkedAgainst', { count: verification.rows, file: <code>{verifiedAgainst}</code> })}
              </p>
            </div>
          )}
        </div>
      </section>
      <section className="card" aria-labelledby="audit-title">
        <h2 id="audit-title">{t('history.audit.entries.title')}</h2>
        <AuditFilters />
        <ErrorNotice error={error} testId="@audit/list-error" />
        <div className="table-wrap">
          <table className="table table--dense table--audit" data-testid="@audit/table">
            <thead>
              <tr>
                <th scope="col" className="num">
                  #
                </th>
                <th scope="col">{t('history.audit.entries.column.when')}</th>
                <th scope="col">{t('history.audit.entries.column.verifies')}</th>
                <th scope="col">{t('history.audit.entries.column.what')}</th>
                <th scope="col">{t('history.word.kind')}</th>
                <th scope="col">{t('history.word.details')}</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry.seq} className={entry.seq === badSeq ? 'is-bad' : undefined} data-testid="@audit/row" data-seq={entry.seq}>
                  <td className="num">
                    {entry.seq === badSeq ? <span className="badge badge--bad">{t('history.audit.entries.altered')}</span> : null} {entry.seq}
                  </td>
                  <td className="small"><DateTime at={entry.at} /></td>
                  <td>
                    <Standing verification={entry.verification} />
                  </td>
                  <td className="break" data-testid="@audit/row-sentence">{auditSentenceFor(entry)}</td>
                  <td className="small" title={entry.subject ?? undefined}>
                    {auditActionLabelFor(entry.action)}
                    {entry.subject === null ? null : <span className="mono muted"> {shorten(entry.subject, 8)}</span>}
                  </td>
                  <td className="small break">
                    <RowDetails entry={entry} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {!loading && entries.length === 0 ? (
          <p className="muted" data-testid="@audit/empty">
            {filters === EMPTY_AUDIT_FILTERS ? t('history.audit.entries.none') : t('history.audit.entries.noneMatch')}
          </p>
        ) : null}
        {nextCursor === null ? null : (
          <button type="button" className="button" disabled={loading} onClick={() => void useAuditStore.getState().loadMore()}>
            {loading ? t('history.word.loading') : t('history.audit.entries.loadOlder')}
          </button>
        )}
      </section>
      <Checkpoints />
      <AuditExport />
    </>
  );
}

/** Checkpoints: the head, signed by the desk key, in a file the team keeps elsewhere; and verification against one. */
function Checkpoints(): React.JSX.Element {
  const verifying = useAuditStore((state) => state.verifying);
  const saving = useFileAction(() => useAuditStore.getState().checkpoint());
  return (
    <section className="card" aria-labelledby="audit-checkpoint-title">
      <h2 id="audit-checkpoint-title">{t('history.audit.checkpoints.title')}</h2>
      <p className="muted">{t('history.audit.checkpoints.about')}</p>
      <div className="actions">
        <button type="button" className="button" disabled={saving.busy} onClick={() => void saving.run()} data-testid="@audit/checkpoint-button">
          {t('history.audit.checkpoints.save')}
        </button>
        <button type="button" className="button" disabled={verifying} onClick={() => void useAuditStore.getState().verifyAgainstCheckpoint()} data-testid="@audit/verify-against-button">
          {t('history.audit.checkpoints.verifyAgainst')}
        </button>
      </div>
      <ErrorNotice error={saving.error} testId="@audit/checkpoint-error" />
      <div role="status" data-testid="@audit/checkpoint-result">
        {saving.done === null ? null : (
          <p>
            {tRich('history.audit.checkpoints.saved', {
              seq: saving.done.value.seq,
              fingerprint: <strong className="mono">{saving.done.value.fingerprint}</strong>,
              file: <code>{saving.done.fileName}</code>,
            })}
          </p>
        )}
      </div>
      <p className="muted small">{t('history.audit.checkpoints.resultWhere')}</p>
    </section>
  );
}

function AuditExport(): React.JSX.Element {
  return (
    <section className="card" aria-labelledby="audit-export-title">
      <h2 id="audit-export-title">{t('history.audit.export.title')}</h2>
      <p className="muted">{t('history.audit.export.about')}</p>
      <ExportButton
        groupLabel={t('history.audit.export.group')}
        label={t('history.audit.export.button')}
        action={() => useAuditStore.getState().exportLog()}
        written={(value) => t('history.audit.export.written', { count: value.rows })}
        testId="@audit/export"
      />
    </section>
  );
}
