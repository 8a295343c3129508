// The label of a deposit, withdrawal or deposit address in its table row: the labels store's copy (loaded once, kept
// fresh by the labels/changed event) shown and edited with LabelCell, so the row itself needs no label field.
import type { LabelType } from '../../../electron/contract';
import { labelKey, useLabelsStore } from '../stores/labels';
import { LabelCell } from './LabelCell';

interface RecordLabelProps {
  readonly type: Exclude<LabelType, 'book'>;
  /** The record's ref: a deposit's apiOrder, a withdrawal's userOrder, a deposit address. */
  readonly refValue: string;
  readonly what: string;
  readonly testId: string;
}

export function RecordLabel({ type, refValue, what, testId }: RecordLabelProps): React.JSX.Element {
  const label = useLabelsStore((state) => state.byRecord[labelKey(type, refValue)]?.label ?? null);
  return (
    <LabelCell
      label={label}
      what={what}
      save={(text, as) => useLabelsStore.getState().setLabel(type, refValue, text, as)}
      saveInSession={(text) => useLabelsStore.getState().setLabel(type, refValue, text, null)}
      testId={testId}
    />
  );
}
