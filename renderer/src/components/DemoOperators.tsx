// On a demo desk only: the demo operators and their passphrases (the contract publishes them: a demo is for
// learning). Never shown for a real profile.
import { DEMO_OPERATORS } from '../../../electron/contract/dto';
import { t, tRich } from '../i18n';
import { useSessionStore } from '../stores/session';

export function DemoOperators(): React.JSX.Element | null {
  const isDemo = useSessionStore((state) => state.session?.isDemo === true);
  if (!isDemo) return null;
  return (
    <div className="notice notice--demo small" data-testid="@demo/operators">
      <p className="notice__title">{t('operators.demo.title')}</p>
      <ul>
        {DEMO_OPERATORS.map((operator) => (
          <li key={operator.name}>
            {tRich('operators.demo.operator', { code: (chunks) => <code>{chunks}</code>, name: operator.name, role: operator.role, passphrase: operator.passphrase })}
          </li>
        ))}
      </ul>
    </div>
  );
}
