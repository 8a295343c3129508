// Shows an address with the characters at `positions` marked: how a look-alike (poisoned) address differs. A typed
// control or text-direction character is shown escaped (ESC as ⟨U+001B⟩) in its own position, so the marks stay in place.
import { displayText } from '../format';
interface AddressDiffProps {
  readonly address: string;
  readonly positions: readonly number[];
  readonly testId?: string;
}

export function AddressDiff({ address, positions, testId }: AddressDiffProps): React.JSX.Element {
  const marked = new Set(positions);
  const parts: React.JSX.Element[] = [];
  let run = '';
  let runMarked = false;
  const flush = (key: number): void => {
    if (run === '') return;
    parts.push(
      runMarked ? (
        <mark key={key} className="diff__mark">
          {run}
        </mark>
      ) : (
        <span key={key}>{run}</span>
      ),
    );
    run = '';
  };
  const chars = [...address];
  chars.forEach((char, index) => {
    const isMarked = marked.has(index);
    if (isMarked !== runMarked) {
      flush(index);
      runMarked = isMarked;
    }
    run += displayText(char);
  });
  flush(chars.length);
  const extra = positions.filter((position) => position >= address.length).length;
  return (
    <code className="address diff" data-testid={testId}>
      {parts}
      {extra > 0 ? <mark className="diff__mark diff__missing">{'·'.repeat(extra)}</mark> : null}
    </code>
  );
}
