// Audit log: every signed statement and system event in a hash chain (audit/list pages), the head's fingerprint
// (audit/head), chain verification naming the first altered row and why (audit/verify), checkpoints written to a file
// the team keeps elsewhere and verification against one (audit/checkpoint, audit/verify against), and export.
import { useEffect } from 'react';
import { DateTime } from '../components/DateTime';
import { ErrorNotice } from '../components/ErrorNotice';
import { useFileAction } from '../file-action';
import { Fingerprint } from '../components/Fingerprint';
import { shorten } from '../format';
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
  const verifiedAgainst = useAuditStore((state) => state.verifiedAgainst);
  const head = useAuditStore((state) => state.head);
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
          <h2 id="audit-verify-title">Integrity</h2>
          <button type="button" className="button button--primary" disabled={verifying} onClick={() => void useAuditStore.getState().verify()} data-testid="@audit/verify-button">
            {verifying ? 'Verifying…' : 'Verify the chain'}
          </button>
        </div>
        <p className="muted">
          Each entry carries the signature of whoever made it and the hash of the one before it, so an entry changed or removed after the fact breaks the chain
          from that row on. Verification checks every signature against the roster as it stood at that row.
        </p>
        {head === null ? (
          <p className="muted" data-testid="@audit/head-empty">
            The log is empty.
          </p>
        ) : (
          <Fingerprint
            label={`Head of the chain: entry #${head.seq}`}
            value={head.fingerprint}
            compare="Note it down or save a checkpoint: a later verification against it shows whether this part of the log is still the same."
            testId="@audit/head-fingerprint"
          />
        )}
        <div aria-live="polite">
          <ErrorNotice error={verifyError} testId="@audit/verify-error" />
          {verification === null ? null : verification.ok ? (
            <div className="notice notice--ok" data-testid="@audit/verify-result" data-ok="true">
              <p className="notice__title">Intact: all {verification.rows.toLocaleString('en-US')} entries verify.</p>
              {verification.checkpoint === 'matched' ? (
                <p data-testid="@audit/verify-checkpoint">
                  The checkpoint {verifiedAgainst === null ? '' : <code>{verifiedAgainst}</code>} matches: its entry is still in the chain with the same hash.
                </p>
              ) : null}
              {verification.legacyRows > 0 ? (
                <p className="notice__detail">
                  {verification.legacyRows.toLocaleString('en-US')} older entries from before signed approvals carry no signature; the chain seals them as they were.
                </p>
              ) : null}
              <p className="notice__detail">
                {verification.anchored
                  ? "This workstation's keychain holds the head it last verified, and the chain still contains it."
                  : "This workstation's keychain holds no earlier head to compare with yet."}
              </p>
            </div>
          ) : (
            <div className="notice notice--error" data-testid="@audit/verify-result" data-ok="false" data-first-bad-seq={verification.firstBadSeq}>
              <p className="notice__title">{verifiedAgainst === null ? 'The audit log was altered.' : 'The audit log does not hold against the checkpoint.'}</p>
              <p>
                The first bad entry is <strong data-testid="@audit/first-bad-seq">#{verification.firstBadSeq}</strong>:{' '}
                <span data-testid="@audit/verify-reason">{verification.reason}</span>
              </p>
              <p>
                {verification.rows.toLocaleString('en-US')} entries were checked{verifiedAgainst === null ? '' : <> against the checkpoint <code>{verifiedAgainst}</code></>}. Keep this workstation as it is
                and tell your security officer.
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
                  <td className="small"><DateTime at={entry.at} /></td>
                  <td>{entry.operator ?? '—'}</td>
                  <td className="mono">{entry.action}</td>
                  <td className="mono small" title={entry.subject ?? undefined}>
                    {entry.subject === null ? '' : shorten(entry.subject, 8)}
                  </td>
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
      <h2 id="audit-checkpoint-title">Checkpoints</h2>
      <p className="muted">
        A checkpoint is the head of the chain signed by this desk. Keep the file somewhere else (another machine, a printout): whoever can edit this
        workstation&apos;s database cannot change it, and verifying against it shows whether the log up to that entry is still the same.
      </p>
      <div className="actions">
        <button type="button" className="button" disabled={saving.busy} onClick={() => void saving.run()} data-testid="@audit/checkpoint-button">
          Save checkpoint…
        </button>
        <button type="button" className="button" disabled={verifying} onClick={() => void useAuditStore.getState().verifyAgainstCheckpoint()} data-testid="@audit/verify-against-button">
          Verify against checkpoint…
        </button>
      </div>
      <ErrorNotice error={saving.error} testId="@audit/checkpoint-error" />
      <div role="status" data-testid="@audit/checkpoint-result">
        {saving.done === null ? null : (
          <p>
            Saved a checkpoint of entry #{saving.done.value.seq} (fingerprint <strong className="mono">{saving.done.value.fingerprint}</strong>) to{' '}
            <code>{saving.done.fileName}</code>.
          </p>
        )}
      </div>
      <p className="muted small">The result of a verification appears under Integrity above.</p>
    </section>
  );
}

function AuditExport(): React.JSX.Element {
  const exporting = useFileAction(() => useAuditStore.getState().exportLog());
  return (
    <section className="card" aria-labelledby="audit-export-title">
      <h2 id="audit-export-title">Export</h2>
      <p className="muted">The whole log, with its hashes and signatures, as JSON lines.</p>
      <button type="button" className="button" disabled={exporting.busy} onClick={() => void exporting.run()} data-testid="@audit/export-button">
        Export the log…
      </button>
      <ErrorNotice error={exporting.error} />
      <p role="status">{exporting.done === null ? null : `Exported ${exporting.done.value.rows} entries to ${exporting.done.fileName}.`}</p>
    </section>
  );
}
