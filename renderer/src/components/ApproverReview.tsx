// Everything an approver signs (withdrawals/review, issue 20 part 5): the items and words of contract/approver-view,
// the same in the approve dialog and the queue's detail as on the CLI. Amounts grouped in the person's locale, times in
// the reporting zone; the engine's answer is already escaped (api.ts), so a memo or label cannot act on the screen.
import type { ApproverView } from '../../../electron/contract';
import { reviewLinesFor, reviewWarningFor } from '../i18n/sentences';
import { displayLocale } from '../format';
import { useDateTimeText } from './DateTime';

interface ApproverReviewProps {
  readonly view: ApproverView;
  /** Prefix of the test ids: `${testId}/amount`, `${testId}/fee`... */
  readonly testId: string;
}

export function ApproverReview({ view, testId }: ApproverReviewProps): React.JSX.Element {
  const time = useDateTimeText();
  const warning = reviewWarningFor(view);
  return (
    <div className="stack" data-testid={testId} data-signed={String(view.signed)}>
      {warning === null ? null : (
        <p className="notice notice--error" role="alert" data-testid={`${testId}/warning`}>
          {warning}
        </p>
      )}
      <dl className="facts">
        {reviewLinesFor(view, { locale: displayLocale(), time }).map((line) => (
          <div key={line.item} className="facts__row" data-testid={`${testId}/${line.item}`} data-warn={String(line.warn)}>
            <dt>{line.label}</dt>
            <dd className={line.warn ? 'break facts__warn' : 'break'}>{line.value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
