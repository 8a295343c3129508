// The team feature: team mode's methods (team/status, init, join, verify, reanchor, leave) over this workstation's TeamMode
// (core/team/mode.ts). The database password in a URL is known to the log's redactor before anything can log it.
import type { TreasuryHandlers } from '../../contract';
import { registerSecret } from '../log';
import { actingAs } from '../operators';
import type { Kernel } from '../kernel/kernel';
import type { AuditRecorder } from '../audit';
import type { ProfileSelection } from '../profiles';
import type { TeamMode } from './mode';
import { withHostList } from './pg-hosts';
import type { Handle } from '../kernel/handle';

export interface TeamFeatureDeps {
  readonly context: Kernel & AuditRecorder & ProfileSelection;
  readonly team: TeamMode;
}

type TeamMethods = 'team/status' | 'team/init' | 'team/join' | 'team/preview' | 'team/verify' | 'team/reanchor' | 'team/leave';

/** Registers the password of a database URL as a secret (a URL that does not parse is refused later, by TeamMode). */
function registerUrlPassword(url: string): void {
  try {
    const password = decodeURIComponent(withHostList(url, (parsed) => parsed.password));
    if (password !== '') registerSecret(password, 'passphrase');
  } catch {
    // not a URL: TeamMode refuses it with a clear message
  }
}

export function teamHandlers({ context, team }: TeamFeatureDeps, handle: Handle): Pick<TreasuryHandlers, TeamMethods> {
  return {
    'team/status': handle('team/status', () => team.view()),
    'team/init': handle('team/init', (request) => {
      registerUrlPassword(request.database);
      if (request.ownerDatabase !== undefined) registerUrlPassword(request.ownerDatabase);
      return team.init(request.database, request.workstation, request.as, request.ownerDatabase);
    }),
    'team/join': handle('team/join', (request) => {
      registerUrlPassword(request.database);
      return team.join(request.database, request.workstation, request.as, request.genesis);
    }),
    'team/preview': handle('team/preview', (request) => {
      registerUrlPassword(request.database);
      return team.preview(request.database);
    }),
    'team/verify': handle('team/verify', () => team.verify()),
    'team/reanchor': handle('team/reanchor', (request) => team.reanchor(request.as, request.confirm === true)),
    'team/leave': handle('team/leave', async (request) => {
      const acting = await actingAs(context, request.as, 'manageSettings');
      return team.leave(acting);
    }),
  };
}
