// The name of the desk event that removes a merchant profile from this workstation, and the roster with it. Apart from
// the registry's kinds/system.ts, so the roster (ledger/roster.ts) can name it without importing the registry.
export const PROFILE_REMOVED = 'profiles/remove';
