// A drop-down of a fixed list of values for a Field: the one place a <select>'s text value becomes a typed value
// (safe, because every option's value comes from that list).
import type { ReactNode } from 'react';
import type { ControlProps } from './Field';

interface SelectProps<V extends string> {
  readonly control: ControlProps;
  readonly value: V;
  readonly options: readonly V[];
  readonly label: (value: V) => ReactNode;
  readonly onChange: (value: V) => void;
  readonly testId?: string;
}

export function Select<V extends string>({ control, value, options, label, onChange, testId }: SelectProps<V>): React.JSX.Element {
  return (
    <select {...control} className="input" value={value} onChange={(event) => onChange(event.target.value as V)} data-testid={testId}>
      {options.map((option) => (
        <option key={option} value={option}>
          {label(option)}
        </option>
      ))}
    </select>
  );
}
