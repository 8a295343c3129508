// The notifications module's door: what the other core modules use of it (eslint/core-modules.js, layers/imports).
export { DeskNotifications, type NotificationOptions } from './center';
export { notificationsHandlers } from './handlers';
export { deleteNotificationPreferences } from './notifications-table';
