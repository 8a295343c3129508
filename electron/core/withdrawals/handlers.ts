// The withdrawals feature: the approval desk (preflight, request, approve, reject, cancel, submit, status) and the
// withdrawal policies that decide the approvals needed (withdrawals/*, policies/*).
import { WITHDRAWAL_CURRENCIES, type CurrencySymbol } from '../../chains';
import type { PolicyView, TreasuryHandlers } from '../../contract';
import { type AuditRecorder, toSignable } from '../audit';
import type { Kernel } from '../kernel/kernel';
import type { ProfileSelection } from '../profiles';
import type { MerchantConnection } from '../connection';
import { DeskError } from '../kernel/errors';
import { freezeSending, governanceState, proposalView, proposeGovernance, proposePolicy, proposeUnfreeze, sendingState, vetoChange } from '../operators';
import { labelledRefs } from '../labels';
import { listWithdrawalRequests } from './withdrawals-table';
import {
  approveWithdrawal,
  cancelWithdrawal,
  getWithdrawalView,
  loadRequest,
  policyFor,
  preflight,
  rejectWithdrawal,
  requestWithdrawal,
  submitWithdrawal,
  withdrawalView,
} from './desk';
import { platformWithdrawalSettings, withdrawTypeRefusal } from './platform-rules';
import { controlProofView, startControlProof } from './control-proof';
import { clearFlaggedAddress, radarView } from './radar-clearance';
import { reviewOf } from './review';
import { draftProblems, policyOfDraft, previewPolicy, testPolicy } from './simulate';
import { sharedViewRows } from './verify';
import { recordStuckOrders, stuckOrders } from './watchdog';
import { DEFAULT_PAGE, type Handle } from '../kernel/handle';

export interface WithdrawalsFeatureDeps {
  readonly context: Kernel & AuditRecorder & ProfileSelection & MerchantConnection;
}

type WithdrawalMethods =
  | 'withdrawals/preflight'
  | 'withdrawals/request'
  | 'withdrawals/approve'
  | 'withdrawals/reject'
  | 'withdrawals/cancel'
  | 'withdrawals/submit'
  | 'withdrawals/get'
  | 'withdrawals/review'
  | 'withdrawals/list'
  | 'policies/list'
  | 'policies/set'
  | 'policies/test'
  | 'policies/preview'
  | 'sending/state'
  | 'sending/freeze'
  | 'sending/unfreeze'
  | 'governance/state'
  | 'governance/set'
  | 'governance/veto'
  | 'radar/list'
  | 'radar/clear'
  | 'addressbook/prove'
  | 'addressbook/proof';

export function withdrawalsHandlers({ context }: WithdrawalsFeatureDeps, handle: Handle): Pick<TreasuryHandlers, WithdrawalMethods> {
  const profileName = (): string => context.activeProfile().name;

  function policyView(currency: CurrencySymbol): PolicyView {
    const policy = policyFor(context, profileName(), currency);
    return {
      currency,
      thresholds: policy.thresholds,
      dailyLimit: policy.dailyLimit,
      useFinancialConfirmation: policy.useFinancialConfirmation,
      onlyFromBook: policy.onlyFromBook === true,
      newDestinationWaitHours: policy.newDestinationWaitHours ?? 0,
      approvalValidHours: policy.approvalValidHours ?? null,
      windows: policy.windows ?? [],
      destinationCaps: policy.destinationCaps ?? [],
      unusualAmount: policy.unusualAmount ?? null,
      provenControlAbove: policy.provenControlAbove ?? null,
    };
  }

  return {
    'withdrawals/preflight': handle('withdrawals/preflight', (request) => preflight(context, request)),
    'withdrawals/request': handle('withdrawals/request', (request) => requestWithdrawal(context, request)),
    'withdrawals/approve': handle('withdrawals/approve', (request) => approveWithdrawal(context, request.id, request.as)),
    'withdrawals/reject': handle('withdrawals/reject', (request) => rejectWithdrawal(context, request.id, request.reason, request.as)),
    'withdrawals/cancel': handle('withdrawals/cancel', (request) => cancelWithdrawal(context, request.id, request.reason, request.as)),
    'withdrawals/submit': handle('withdrawals/submit', (request) => submitWithdrawal(context, request.id, request.as)),
    'withdrawals/get': handle('withdrawals/get', (request) => getWithdrawalView(context, request.id)),
    'withdrawals/review': handle('withdrawals/review', (request) => reviewOf(context, loadRequest(context, request.id))),
    'withdrawals/list': handle('withdrawals/list', (request) => {
      if (request.stuck === true) {
        // Whoever finds an order stuck records it (once): the CLI too, where no watchdog runs.
        const stuck = stuckOrders(context, profileName());
        recordStuckOrders(context, profileName(), stuck);
        const roster = context.trail.roster(profileName(), { cached: true });
        const rowsFor = sharedViewRows(context);
        return { rows: stuck.map((order) => withdrawalView(context, order.request, roster, rowsFor)), nextCursor: null };
      }
      const userOrders = labelledRefs(context.db, profileName(), 'withdrawal', request.label);
      const page = listWithdrawalRequests(context.db, {
        profile: profileName(),
        limit: request.limit ?? DEFAULT_PAGE,
        after: request.cursor ?? null,
        ...(request.state ? { state: request.state } : {}),
        ...(userOrders !== undefined ? { userOrders } : {}),
      });
      const roster = context.trail.roster(profileName(), { cached: true });
      const rowsFor = sharedViewRows(context);
      return { rows: page.rows.map((row) => withdrawalView(context, row, roster, rowsFor)), nextCursor: page.nextCursor };
    }),

    'policies/list': handle('policies/list', () => WITHDRAWAL_CURRENCIES.map(policyView)),
    'sending/state': handle('sending/state', () => sendingState(context)),
    'sending/freeze': handle('sending/freeze', (request) => freezeSending(context, request.reason, request.as)),
    'sending/unfreeze': handle('sending/unfreeze', (request) => proposeUnfreeze(context, request.as)),
    'governance/state': handle('governance/state', () => governanceState(context)),
    'governance/set': handle('governance/set', (request) => proposeGovernance(context, request, request.as)),
    'governance/veto': handle('governance/veto', (request) => vetoChange(context, request.change, request.reason, request.as)),
    'radar/list': handle('radar/list', () => radarView(context)),
    'radar/clear': handle('radar/clear', (request) => clearFlaggedAddress(context, request.address, request.as)),
    'addressbook/prove': handle('addressbook/prove', (request) => startControlProof(context, request.chain, request.address, request.as)),
    'addressbook/proof': handle('addressbook/proof', (request) => controlProofView(context, request.chain, request.address)),
    'policies/test': handle('policies/test', (request) => testPolicy(context, request)),
    'policies/preview': handle('policies/preview', (request) => previewPolicy(context, request.currency, request)),
    'policies/set': handle('policies/set', async (request) => {
      const policy = policyOfDraft(request);
      const problems = draftProblems(context.trail.roster(profileName(), { cached: true }), policy);
      if (problems.length > 0) throw new DeskError('invalidInput', `the policy is not usable: ${problems.join('; ')}`);
      const refusal = withdrawTypeRefusal(platformWithdrawalSettings(context.db, profileName()), policy.useFinancialConfirmation ? 'financialConfirmation' : 'normal');
      if (refusal) {
        const message = `the platform would refuse every withdrawal under this policy: ${refusal.reason}: ${refusal.remedy}`;
        throw new DeskError('invalidInput', message, { useFinancialConfirmation: message });
      }
      const proposal = await proposePolicy(context, request.currency, toSignable(policy) as never, request.as);
      const applied = proposal.state === 'applied';
      const proposed = {
        currency: request.currency,
        ...policy,
        onlyFromBook: request.onlyFromBook === true,
        newDestinationWaitHours: request.newDestinationWaitHours ?? 0,
        approvalValidHours: request.approvalValidHours ?? null,
        windows: policy.windows ?? [],
        destinationCaps: policy.destinationCaps ?? [],
        unusualAmount: policy.unusualAmount ?? null,
        provenControlAbove: policy.provenControlAbove ?? null,
      };
      return { applied, proposal: proposalView(proposal), policy: applied ? policyView(request.currency) : proposed };
    }),
  };
}
