// Audit log: every privileged action in a hash chain (audit/list pages), chain verification naming the first altered
// row (audit/verify), and export to a file (audit/export).
import { useEffect, useState, type FormEvent } from 'react';
import type { ContractError } from '../api';
import { ErrorNotice } from '../components/ErrorNotice';
import { Field } from '../components/Field';
import { formatDateTime } from '../format';
import { useAuditStore } from '../stores/audit';

function detailsText(details: unknown): string {
  if (details === null || details === undefined) return '';
  if (typeof details === 'string') return details;
  try {
    return JSON.stringify(details);
  } catch {
    return String(details);
  }
}

export function Audit(): React.JSX.Element {
  const entries = useAuditStore((state) => state.entries);
  const nextCursor = useAuditStore((state) => state.nextCursor);
  const loading = useAuditStore((state) => state.loading);
  const error = useAuditStore((state) => state.error);
  const verification = useAuditStore((state) => state.verification);
  const verifying = useAuditStore((state) => state.verifying);
  const verifyError = useAuditStore((state) => state.verifyError);
  useEffect(() => {
    void useAuditStore.getState().load();
  }, []);
  const badSeq = verification !== null && !verification.ok ? verification.firstBadSeq : null;
  useEffect(() => {
    if (badSeq !== null) document.querySelector(`[data-seq="${badSeq}"]`)?.scrollIntoView({ block: 'center' });
  }, [badSeq, entries]);
  return (
    <>
      <section className="card" aria-labelledby="audit-verify-title">
        <div className="card__head">
          <h2 id="audit-verify-title">Integrity</h2>
          <button type="button" className="button button--primary" disabled={verifying} onClick={() => void useAuditStore.getState().verify()} data-testid="@audit/verify-button">
            {verifying ? 'Verifying…' : 'Verify the chain'}
          </button>
        </div>
        <p className="muted">Each entry carries the hash of the one before it, so an entry changed or removed after the fact breaks the chain from that row on.</p>
        <div aria-live="polite">
          <ErrorNotice error={verifyError} />
          {verification === null ? null : verification.ok ? (
            <p className="verdict verdict--ok" data-testid="@audit/verify-result">
              Intact: all {verification.rows.toLocaleString('en-US')} entries verify.
            </p>
          ) : (
            <div className="notice notice--error" data-testid="@audit/verify-result">
              <p className="notice__title">The audit log was altered.</p>
              <p>
                The first altered entry is #{verification.firstBadSeq} ({verification.reason}); {verification.rows.toLocaleString('en-US')} entries were checked. Keep
                this workstation as it is and tell your security officer.
              </p>
            </div>
          )}
        </div>
      </section>
      <section className="card" aria-labelledby="audit-title">
        <h2 id="audit-title">Entries</h2>
        <ErrorNotice error={error} />
        <div className="table-wrap">
          <table className="table table--dense" data-testid="@audit/table">
            <thead>
              <tr>
                <th scope="col" className="num">
                  #
                </th>
                <th scope="col">When</th>
                <th scope="col">Operator</th>
                <th scope="col">Action</th>
                <th scope="col">Subject</th>
                <th scope="col">Details</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry.seq} className={entry.seq === badSeq ? 'is-bad' : undefined} data-testid="@audit/row" data-seq={entry.seq}>
                  <td className="num">
                    {entry.seq === badSeq ? <span className="badge badge--bad">altered</span> : null} {entry.seq}
                  </td>
                  <td className="small">{formatDateTime(entry.at)}</td>
                  <td>{entry.operator ?? '—'}</td>
                  <td className="mono">{entry.action}</td>
                  <td className="mono small">{entry.subject ?? ''}</td>
                  <td className="mono small clip" title={detailsText(entry.details)}>
                    {detailsText(entry.details)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {!loading && entries.length === 0 ? <p className="muted">No entries yet.</p> : null}
        {nextCursor === null ? null : (
          <button type="button" className="button" disabled={loading} onClick={() => void useAuditStore.getState().loadMore()}>
            {loading ? 'Loading…' : 'Load older entries'}
          </button>
        )}
      </section>
      <AuditExport />
    </>
  );
}

function AuditExport(): React.JSX.Element {
  const [path, setPath] = useState('');
  const [error, setError] = useState<ContractError | null>(null);
  const [done, setDone] = useState<{ rows: number; path: string } | null>(null);
  async function submit(event: FormEvent): Promise<void> {
    event.preventDefault();
    const result = await useAuditStore.getState().exportTo(path.trim());
    setError(result.ok ? null : result.error);
    setDone(result.ok ? result.value : null);
  }
  return (
    <section className="card" aria-labelledby="audit-export-title">
      <h2 id="audit-export-title">Export</h2>
      <form className="inline-form" onSubmit={(event) => void submit(event)}>
        <Field label="Write the whole log (with hashes) to" className="grow">
          {(control) => <input {...control} className="input input--mono" value={path} onChange={(event) => setPath(event.target.value)} placeholder="/home/you/audit.jsonl" required />}
        </Field>
        <div className="inline-form__submit">
          <button type="submit" className="button">
            Export
          </button>
        </div>
      </form>
      <ErrorNotice error={error} />
      <p role="status">{done === null ? null : `Exported ${done.rows} entries to ${done.path}.`}</p>
    </section>
  );
}
