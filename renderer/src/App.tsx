// Top-level React component; the treasury screens arrive with the desktop-app issue.
import { WITHDRAWAL_CURRENCIES } from '../../electron/chains';

export function App(): React.JSX.Element {
  return (
    <main>
      <h1>Treasury Desk</h1>
      <p>Supported withdrawal currencies: {WITHDRAWAL_CURRENCIES.length}</p>
    </main>
  );
}
