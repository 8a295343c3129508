// The operators feature: the roster (found, invite, accept, confirm, roles, disable, re-key, passphrases), operators/*.
// Each operator's notification preferences are notifications/handlers.ts.
import type { TreasuryHandlers } from '../../contract';
import type { Kernel } from '../kernel/kernel';
import type { AuditRecorder } from '../audit';
import type { ProfileSelection } from '../profiles';
import {
  acceptInvitation,
  changePassphrase,
  changeRole,
  confirmProposal,
  disableOperator,
  foundDesk,
  inviteOperator,
  rekeyOperator,
  rosterView,
  withdrawProposal,
} from './enrolment';
import { addDevice, confirmDevice, type TeamWorkstation } from './devices';
import { approvalGroups, proposeGroup } from './approval-groups';
import type { Handle } from '../kernel/handle';

export interface OperatorsFeatureDeps {
  readonly context: Kernel & AuditRecorder & ProfileSelection;
  /** Team mode, for device keys (which exist only on a team desk). */
  readonly team: TeamWorkstation;
}

type OperatorMethods =
  | 'operators/list'
  | 'operators/found'
  | 'operators/invite'
  | 'operators/accept'
  | 'operators/confirm'
  | 'operators/withdrawProposal'
  | 'operators/setRole'
  | 'operators/disable'
  | 'operators/rekey'
  | 'operators/addDevice'
  | 'operators/confirmDevice'
  | 'operators/changePassphrase'
  | 'operators/groups'
  | 'operators/setGroup';

export function operatorsHandlers({ context, team }: OperatorsFeatureDeps, handle: Handle): Pick<TreasuryHandlers, OperatorMethods> {
  return {
    'operators/list': handle('operators/list', () => rosterView(context)),
    'operators/found': handle('operators/found', (request) => foundDesk(context, request.admins)),
    'operators/invite': handle('operators/invite', (request) => inviteOperator(context, request.name, request.role, request.as)),
    'operators/accept': handle('operators/accept', (request) => acceptInvitation(context, request)),
    'operators/confirm': handle('operators/confirm', (request) => confirmProposal(context, request.proposal, request.as)),
    'operators/withdrawProposal': handle('operators/withdrawProposal', (request) => withdrawProposal(context, request.proposal, request.as)),
    'operators/setRole': handle('operators/setRole', (request) => changeRole(context, request.name, request.role, request.as)),
    'operators/disable': handle('operators/disable', (request) => disableOperator(context, request.name, request.as)),
    'operators/rekey': handle('operators/rekey', (request) => rekeyOperator(context, request.name, request.as)),
    'operators/addDevice': handle('operators/addDevice', (request) => addDevice(context, request, team)),
    'operators/confirmDevice': handle('operators/confirmDevice', (request) => confirmDevice(context, request.proposal, request.as)),
    'operators/groups': handle('operators/groups', () => approvalGroups(context)),
    'operators/setGroup': handle('operators/setGroup', (request) => proposeGroup(context, request.group, request.members, request.as)),
    'operators/changePassphrase': handle('operators/changePassphrase', (request) =>
      changePassphrase(context, { operator: request.operator, passphrase: request.passphrase }, request.newPassphrase),
    ),
  };
}
