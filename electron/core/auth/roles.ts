// Operator roles and what each may do. The engine checks these on every action; the UI only mirrors them.
export const OPERATOR_ROLES = ['viewer', 'initiator', 'approver', 'admin'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

export const OPERATOR_ACTIONS = [
  'view',
  'requestWithdrawal',
  'cancelWithdrawal',
  'approveWithdrawal',
  'rejectWithdrawal',
  'submitWithdrawal',
  'createAddress',
  'manageOperators',
  'managePolicies',
  'manageProfiles',
  'manageSettings',
  'editLabels',
] as const;
export type OperatorAction = (typeof OPERATOR_ACTIONS)[number];

const PERMISSIONS: Readonly<Record<OperatorRole, readonly OperatorAction[]>> = {
  viewer: ['view'],
  initiator: ['view', 'requestWithdrawal', 'cancelWithdrawal', 'submitWithdrawal', 'createAddress', 'editLabels'],
  approver: ['view', 'approveWithdrawal', 'rejectWithdrawal', 'submitWithdrawal', 'createAddress', 'editLabels'],
  admin: [...OPERATOR_ACTIONS],
};

export function isOperatorRole(value: string): value is OperatorRole {
  return (OPERATOR_ROLES as readonly string[]).includes(value);
}

export function roleMay(role: OperatorRole, action: OperatorAction): boolean {
  return PERMISSIONS[role].includes(action);
}

/** A role with its article, for sentences: "an approver", "a viewer". */
export function roleWithArticle(role: OperatorRole): string {
  return `${/^[aeiou]/.test(role) ? 'an' : 'a'} ${role}`;
}
