// The module map of electron/core (issue 19; ARCHITECTURE.md "modules, each {name, deps}"): which module owns each
// core file, and the modules each may import, in one list from the bottom up. A module may depend only on modules
// listed before it, so the graph is acyclic by construction. Judged by the `layers/imports` rule on resolved paths;
// test/unit/lint/core-modules.test.ts checks that every declared dependency is used and every import declared.
import { relative, sep } from 'node:path';

/**
 * The modules, bottom first. `owns`: paths under electron/core, a folder ending in '/' or one file. A module's folder
 * holds its code, its tables (<x>-table.ts) and its contract handlers (handlers.ts); the kernel's store/ holds only the
 * database handle and the migrations.
 * `dependsOn`: the modules (each listed earlier) whose files this module's files import. Every module may import the
 * kernel.
 */
export const CORE_MODULES = [
  {
    name: 'kernel',
    owns: ['kernel/', 'log/', 'files/', 'export/', 'store/'],
    dependsOn: [],
  },
  { name: 'secrets', owns: ['secrets/'], dependsOn: [] },
  { name: 'profiles', owns: ['profiles/'], dependsOn: [] },
  { name: 'ledger', owns: ['ledger/', 'statements/', 'auth/'], dependsOn: ['secrets', 'profiles'] },
  { name: 'audit', owns: ['audit/'], dependsOn: ['secrets', 'profiles', 'ledger'] },
  { name: 'connection', owns: ['connection/'], dependsOn: ['secrets', 'profiles'] },
  { name: 'operators', owns: ['operators/'], dependsOn: ['profiles', 'ledger', 'audit'] },
  { name: 'session', owns: ['session/'], dependsOn: ['profiles', 'audit', 'operators'] },
  { name: 'addressBook', owns: ['address-book/'], dependsOn: ['profiles', 'ledger', 'audit', 'operators'] },
  { name: 'labels', owns: ['labels/'], dependsOn: ['profiles', 'ledger', 'audit', 'operators', 'addressBook'] },
  { name: 'merchant', owns: ['merchant/'], dependsOn: [] },
  { name: 'deposits', owns: ['deposits/'], dependsOn: ['profiles', 'ledger', 'audit', 'session', 'labels', 'merchant'] },
  // The withdrawals module owns the requests and the batches that group them (a batch's lines are requests, joined in
  // the tables); the payouts module runs the batch workflow on top (import, approve as a whole, send).
  { name: 'withdrawals', owns: ['withdrawals/'], dependsOn: ['secrets', 'profiles', 'ledger', 'audit', 'connection', 'operators', 'addressBook', 'labels', 'merchant', 'deposits'] },
  { name: 'payouts', owns: ['payouts/'], dependsOn: ['profiles', 'ledger', 'audit', 'connection', 'operators', 'addressBook', 'merchant', 'withdrawals'] },
  { name: 'sync', owns: ['sync/'], dependsOn: ['profiles', 'audit', 'connection', 'merchant', 'deposits', 'withdrawals'] },
  { name: 'callbacks', owns: ['callbacks/'], dependsOn: ['profiles', 'audit', 'connection', 'operators', 'withdrawals', 'sync'] },
  { name: 'reconcile', owns: ['reconcile/'], dependsOn: ['profiles', 'merchant', 'deposits', 'withdrawals', 'sync'] },
  // Outbound webhooks to the merchant's own systems: endpoints, the delivery queue and its sender; the notifications
  // center queues each event as it claims the occurrence.
  { name: 'webhooks', owns: ['webhooks/'], dependsOn: ['secrets', 'profiles', 'audit', 'connection', 'operators'] },
  { name: 'notifications', owns: ['notifications/'], dependsOn: ['profiles', 'ledger', 'audit', 'connection', 'operators', 'deposits', 'withdrawals', 'payouts', 'webhooks'] },
  { name: 'team', owns: ['team/'], dependsOn: ['secrets', 'profiles', 'ledger', 'audit', 'connection', 'operators', 'addressBook', 'labels', 'withdrawals', 'payouts'] },
  { name: 'reports', owns: ['reports/'], dependsOn: ['profiles', 'audit', 'session', 'addressBook', 'labels', 'merchant', 'deposits', 'withdrawals', 'reconcile'] },
  { name: 'addresses', owns: ['addresses/'], dependsOn: ['profiles', 'audit', 'connection', 'operators', 'withdrawals'] },
  { name: 'diagnostics', owns: ['diagnostics.ts', 'crash-reports.ts'], dependsOn: [] },
  { name: 'desk', owns: ['desk/'], dependsOn: ['secrets', 'profiles', 'ledger', 'audit', 'connection', 'operators', 'session', 'merchant', 'withdrawals', 'sync', 'callbacks', 'notifications', 'diagnostics'] },
  { name: 'engine', owns: ['engine.ts', 'service.ts'], dependsOn: ['secrets', 'profiles', 'audit', 'connection', 'operators', 'session', 'addressBook', 'labels', 'deposits', 'withdrawals', 'payouts', 'sync', 'callbacks', 'reconcile', 'notifications', 'team', 'reports', 'addresses', 'desk', 'webhooks'] },
];

/**
 * The one file through which other modules import `module` (a path under electron/core): its first folder's index.ts,
 * or its only file when it owns no folder. The kernel has none: every module may import any kernel file.
 */
export function moduleEntry(module) {
  if (module.name === 'kernel') return null;
  const folder = module.owns.find((owned) => owned.endsWith('/'));
  return folder ? `${folder}index.ts` : module.owns[0];
}

/** The module owning `coreRelative` (a path under electron/core, '/'-separated), or null when no module owns it. */
export function coreModuleOf(coreRelative) {
  let best = null;
  let bestLength = -1;
  for (const module of CORE_MODULES) {
    for (const owned of module.owns) {
      const matches = owned.endsWith('/') ? coreRelative.startsWith(owned) : coreRelative === owned;
      if (matches && owned.length > bestLength) {
        best = module.name;
        bestLength = owned.length;
      }
    }
  }
  return best;
}

/** '/'-separated path of `absolute` under electron/core of `root`, or null outside it. */
export function coreRelativePath(root, absolute) {
  const path = relative(root, absolute).split(sep).join('/');
  return path.startsWith('electron/core/') ? path.slice('electron/core/'.length) : null;
}
