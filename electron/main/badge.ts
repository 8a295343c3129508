// The app's badge (dock on macOS, Unity-style launchers on Linux, the taskbar overlay where Electron supports it): the
// number of withdrawal requests waiting for the approval of the operator signed in at this workstation; cleared at 0.
import type { App } from 'electron';

/** Sets the badge to `count` (0 clears it); answers whether the desktop took it (many Linux desktops show none). */
export function showApprovalsOnBadge(app: Pick<App, 'setBadgeCount'>, count: number): boolean {
  const shown = Number.isSafeInteger(count) && count > 0 ? count : 0;
  try {
    return app.setBadgeCount(shown);
  } catch {
    // A desktop without badges is not an error worth more than the answer.
    return false;
  }
}
