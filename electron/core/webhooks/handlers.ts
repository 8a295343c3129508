// The webhooks feature (webhooks/*): the merchant's endpoints and the delivery log. Sending is core/webhooks/sender.ts;
// what is sent is queued by the notifications center as it claims each occurrence.
import type { TreasuryHandlers } from '../../contract';
import type { Handle } from '../kernel/handle';
import { addWebhookEndpoint, listWebhookEndpointViews, removeWebhookEndpoint, type WebhookSecrets, type WebhooksContext } from './endpoints';
import type { WebhookSeal } from './seal';
import type { WebhookSender } from './sender';

export interface WebhooksFeatureDeps {
  readonly context: WebhooksContext;
  readonly secrets: WebhookSecrets;
  readonly seal: WebhookSeal;
  readonly sender: WebhookSender;
}

export function webhooksHandlers(
  { context, secrets, seal, sender }: WebhooksFeatureDeps,
  handle: Handle,
): Pick<TreasuryHandlers, 'webhooks/add' | 'webhooks/list' | 'webhooks/remove' | 'webhooks/deliveries' | 'webhooks/redeliver'> {
  return {
    'webhooks/add': handle('webhooks/add', (request) => addWebhookEndpoint(context, secrets, seal, request)),
    'webhooks/list': handle('webhooks/list', (request) => listWebhookEndpointViews(context, request.as)),
    'webhooks/remove': handle('webhooks/remove', async (request) => {
      await removeWebhookEndpoint(context, secrets, request);
      return { removed: request.id };
    }),
    'webhooks/deliveries': handle('webhooks/deliveries', (request) => sender.deliveries(request.endpoint ?? null, request.limit)),
    'webhooks/redeliver': handle('webhooks/redeliver', (request) => sender.redeliver(request.id)),
  };
}
