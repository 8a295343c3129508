// useOperatorsStore: the active profile's roster (operators/list: operators, open proposals, the four-eyes notice) and
// its workflows: founding, invitations and their acceptance, confirmations (device keys too), role changes, disabling, re-keying and a
// new passphrase for one's own key. Passphrases pass through to the one call they are for and are never kept here.
import { create } from 'zustand';
import type { ApprovalGroupChangeView, ApprovalGroupsView, InvitationView, OperatorRoleName, OperatorView, RosterView } from '../../../electron/contract';
import { call, type ContractError, type Result } from '../api';
import type { ActingOperator } from './operator-prompt';

interface OperatorsStore {
  /** null until loaded, and while no profile is active. */
  readonly roster: RosterView | null;
  readonly loaded: boolean;
  readonly error: ContractError | null;
  /** The approval groups in force and the group changes waiting (operators/groups); null until loaded. */
  readonly groups: ApprovalGroupsView | null;
  /** The roster and its approval groups. */
  load(): Promise<void>;
  /** Proposes a group's whole member list ([] dissolves it): in force at once, or waiting for a second admin. */
  setGroup(group: string, members: readonly string[], as: ActingOperator): Promise<Result<ApprovalGroupChangeView>>;
  /** The first one or two admins, each with their own new passphrase. */
  found(admins: readonly ActingOperator[]): Promise<Result<RosterView>>;
  invite(name: string, role: OperatorRoleName, as: ActingOperator): Promise<Result<InvitationView>>;
  accept(name: string, code: string, passphrase: string): Promise<Result<OperatorView>>;
  confirm(proposal: string, as: ActingOperator): Promise<Result<RosterView>>;
  /** Confirms a device key made at another workstation (operators/confirmDevice). */
  confirmDevice(proposal: string, as: ActingOperator): Promise<Result<RosterView>>;
  withdrawProposal(proposal: string, as: ActingOperator): Promise<Result<RosterView>>;
  setRole(name: string, role: OperatorRoleName, as: ActingOperator): Promise<Result<RosterView>>;
  disable(name: string, as: ActingOperator): Promise<Result<RosterView>>;
  rekey(name: string, as: ActingOperator): Promise<Result<InvitationView>>;
  changePassphrase(operator: string, passphrase: string, newPassphrase: string): Promise<Result<OperatorView>>;
}

export const useOperatorsStore = create<OperatorsStore>()((set, get) => {
  /** A roster answer replaces the shown roster at once (the operators/changed event reloads it too). */
  async function adopt(result: Result<RosterView>): Promise<Result<RosterView>> {
    if (result.ok) set({ roster: result.value, loaded: true, error: null });
    if (result.ok) await loadGroups();
    return result;
  }
  /** A group change confirmed or withdrawn arrives as a roster answer: the groups are read again with it. */
  async function loadGroups(): Promise<void> {
    const result = await call('operators/groups', {});
    if (result.ok) set({ groups: result.value });
  }
  async function thenReload<T>(result: Result<T>): Promise<Result<T>> {
    if (result.ok) await get().load();
    return result;
  }
  return {
    roster: null,
    loaded: false,
    error: null,
    groups: null,
    async load() {
      const result = await call('operators/list', {});
      if (result.ok) set({ roster: result.value, loaded: true, error: null });
      if (result.ok) await loadGroups();
      else if (result.error.code === 'noProfile') set({ roster: null, loaded: true, error: null });
      else if (result.error.code !== 'locked') set({ loaded: true, error: result.error });
    },
    async found(admins) {
      return adopt(await call('operators/found', { admins: admins.map((admin) => ({ operator: admin.operator, passphrase: admin.passphrase })) }));
    },
    async invite(name, role, as) {
      return thenReload(await call('operators/invite', { name, role, as }));
    },
    async accept(name, code, passphrase) {
      return thenReload(await call('operators/accept', { name, code, passphrase }));
    },
    async confirm(proposal, as) {
      return adopt(await call('operators/confirm', { proposal, as }));
    },
    async confirmDevice(proposal, as) {
      return adopt(await call('operators/confirmDevice', { proposal, as }));
    },
    async withdrawProposal(proposal, as) {
      return adopt(await call('operators/withdrawProposal', { proposal, as }));
    },
    async setRole(name, role, as) {
      return adopt(await call('operators/setRole', { name, role, as }));
    },
    async disable(name, as) {
      return adopt(await call('operators/disable', { name, as }));
    },
    async setGroup(group, members, as) {
      return thenReload(await call('operators/setGroup', { group, members: [...members], as }));
    },
    async rekey(name, as) {
      return thenReload(await call('operators/rekey', { name, as }));
    },
    async changePassphrase(operator, passphrase, newPassphrase) {
      return thenReload(await call('operators/changePassphrase', { operator, passphrase, newPassphrase }));
    },
  };
});
