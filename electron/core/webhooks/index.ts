// The webhooks module's door: what the other core modules use of it (eslint/core-modules.js, layers/imports).
export { queueWebhookEvent, webhookWanted, type WebhookEventDraft } from './events';
export { webhookDeskSecretNames, WebhookSecrets } from './endpoints';
export { WebhookSeal } from './seal';
export { WebhookSender, type WebhookSenderOptions } from './sender';
export { webhooksHandlers } from './handlers';
