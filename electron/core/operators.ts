// Local operators: who is acting, checked on every privileged action (passphrase + role). The first operator of a
// desk must be an admin and needs no one's approval; later ones are added by an admin.
import type { OperatorView } from '../contract';
import { hashPassphrase, passphraseProblem, verifyPassphrase } from './auth/passphrase';
import { roleMay, type OperatorAction, type OperatorRole } from './auth/roles';
import type { DeskContext } from './context';
import { DeskError } from './errors';
import { createOperator, getOperatorByName, getOperatorCredential, listOperators, type Operator } from './store';

export interface ActingOperator {
  readonly operator: string;
  readonly passphrase: string;
}

/** A hash to compare against when the name is unknown, so a wrong name costs as long as a wrong passphrase. */
let decoyHash: Promise<string> | undefined;

/** Checks name and passphrase; the answer never says which of the two was wrong. */
export async function authenticate(context: DeskContext, acting: ActingOperator): Promise<Operator> {
  const credential = getOperatorCredential(context.db, acting.operator);
  if (!credential) {
    decoyHash ??= hashPassphrase('decoy passphrase for timing');
    await verifyPassphrase(acting.passphrase, await decoyHash);
    throw new DeskError('wrongPassphrase', 'the operator name or passphrase is not right', { passphrase: 'not recognised' });
  }
  if (!(await verifyPassphrase(acting.passphrase, credential.passphraseHash))) {
    context.audit({ operator: credential.name, action: 'operators/wrongPassphrase', subject: credential.name });
    throw new DeskError('wrongPassphrase', 'the operator name or passphrase is not right', { passphrase: 'not recognised' });
  }
  if (credential.disabled) throw new DeskError('forbidden', `operator ${credential.name} is disabled`);
  const operator = getOperatorByName(context.db, credential.name);
  if (!operator) throw new DeskError('notFound', `operator ${credential.name} no longer exists`);
  return operator;
}

const ACTION_WORDS: Readonly<Record<OperatorAction, string>> = {
  view: 'view the desk',
  requestWithdrawal: 'request withdrawals',
  cancelWithdrawal: 'cancel withdrawal requests',
  approveWithdrawal: 'approve withdrawals',
  rejectWithdrawal: 'reject withdrawals',
  submitWithdrawal: 'submit withdrawals',
  createAddress: 'create deposit addresses',
  manageOperators: 'manage operators',
  managePolicies: 'change withdrawal policies',
  manageProfiles: 'manage merchant profiles',
  manageSettings: 'change settings',
};

export function authorize(operator: Operator, action: OperatorAction): void {
  if (!roleMay(operator.role, action)) {
    throw new DeskError('forbidden', `${operator.name} is ${article(operator.role)} ${operator.role} and may not ${ACTION_WORDS[action]}`);
  }
}

function article(word: string): string {
  return /^[aeiou]/.test(word) ? 'an' : 'a';
}

/** Authenticates and authorizes in one step. */
export async function actingAs(context: DeskContext, acting: ActingOperator, action: OperatorAction): Promise<Operator> {
  const operator = await authenticate(context, acting);
  authorize(operator, action);
  return operator;
}

export function toOperatorView(operator: Operator): OperatorView {
  return { id: operator.id, name: operator.name, role: operator.role, createdAt: operator.createdAt, disabled: operator.disabled };
}

export interface NewOperatorInput {
  readonly name: string;
  readonly role: OperatorRole;
  readonly passphrase: string;
  readonly as?: ActingOperator;
}

export async function addOperator(context: DeskContext, input: NewOperatorInput): Promise<OperatorView> {
  const existing = listOperators(context.db);
  let admin: Operator | undefined;
  if (existing.length === 0) {
    if (input.role !== 'admin') throw new DeskError('invalidInput', 'the first operator of a desk must be an admin', { role: 'must be admin' });
  } else {
    if (!input.as) throw new DeskError('forbidden', 'adding an operator needs an admin: give --as ADMIN (the admin is asked for a passphrase)');
    admin = await actingAs(context, input.as, 'manageOperators');
  }
  const problem = passphraseProblem(input.passphrase);
  if (problem) throw new DeskError('invalidInput', problem, { passphrase: problem });
  if (getOperatorByName(context.db, input.name)) {
    throw new DeskError('conflict', `an operator named ${input.name} already exists`, { name: 'already exists' });
  }
  const operator = createOperator(context.db, { name: input.name, role: input.role, passphraseHash: await hashPassphrase(input.passphrase) }, context.now());
  context.audit({ operator: admin?.name ?? operator.name, action: 'operators/add', subject: operator.name, details: { role: operator.role } });
  return toOperatorView(operator);
}
