// `treasury-desk webhooks add URL --events a,b --as ADMIN | list --as ADMIN | remove ID --as ADMIN | deliveries
// [--endpoint ID] | redeliver ID`: the merchant's webhook endpoints and their delivery log (docs/webhooks.md). `add`
// prints the endpoint's signing secret once; the desktop app sends the deliveries (a redelivery asked here too).
import type { Command } from 'commander';
import { WEBHOOK_EVENT_TYPES, type WebhookDeliveryView } from '../../contract';
import { addEngineOptions, withSession } from '../engine-session';
import { table } from '../format';
import type { CommandRegistrar } from '../program';

interface AsOptions {
  readonly as: string;
}

/** A whole number argument (an id), or the text as given so the schema refuses it naming the field. */
function idOf(text: string): number | string {
  return /^\d{1,15}$/.test(text) ? Number(text) : text;
}

function lastAttemptText(delivery: WebhookDeliveryView): string {
  const last = delivery.attempts.at(-1);
  if (last === undefined) return '';
  return `${last.status === null ? (last.error ?? 'no answer') : `HTTP ${last.status}`} in ${last.durationMs} ms`;
}

export const registerWebhooksCommands: CommandRegistrar = (program, io) => {
  const webhooks = program.command('webhooks').description("Signed events to the merchant's own systems: endpoints and their delivery log");

  addEngineOptions(
    webhooks
      .command('add')
      .description('Add an endpoint (https, or http to 127.0.0.1 / localhost); prints its signing secret once')
      .argument('<url>', 'where the desk POSTs the events')
      .requiredOption('--events <types>', `the events it gets, comma-separated: ${WEBHOOK_EVENT_TYPES.join(', ')}`)
      .requiredOption('--as <operator>', 'the admin doing it (asked for a passphrase)'),
  ).action(async (url: string, options: AsOptions & { readonly events: string }, command: Command) => {
    await withSession(command, io, async (session) => {
      const events = options.events.split(',').map((event) => event.trim()).filter((event) => event !== '');
      const added = await session.runAs('webhooks/add', { url, events }, options.as, { url: 'URL', events: '--events' });
      session.output(added, () => {
        session.say(`endpoint ${added.id}: ${added.url} (${added.events.join(', ')})`);
        session.say(`signing secret: ${added.secret}`);
        session.say('Keep it in the receiving system now: it is shown this once (docs/webhooks.md says how to check a signature).');
      });
    });
  });

  addEngineOptions(webhooks.command('list').description('The endpoints of the profile (never their secrets)').requiredOption('--as <operator>', 'the admin asking (asked for a passphrase)')).action(
    async (options: AsOptions, command: Command) => {
      await withSession(command, io, async (session) => {
        const endpoints = await session.runAs('webhooks/list', {}, options.as);
        session.output(endpoints, () =>
          io.stdout(table(['id', 'url', 'events', 'added by', 'added'], endpoints.map((endpoint) => [String(endpoint.id), endpoint.url, endpoint.events.join(','), endpoint.createdBy, session.time(endpoint.createdAt)]))),
        );
      });
    },
  );

  addEngineOptions(
    webhooks.command('remove').description('Remove an endpoint and forget its secret').argument('<id>', 'the endpoint id (webhooks list)').requiredOption('--as <operator>', 'the admin doing it (asked for a passphrase)'),
  ).action(async (id: string, options: AsOptions, command: Command) => {
    await withSession(command, io, async (session) => {
      const removed = await session.runAs('webhooks/remove', { id: idOf(id) }, options.as, { id: 'ID' });
      session.output(removed, () => session.say(`endpoint ${removed.removed} removed`));
    });
  });

  addEngineOptions(webhooks.command('deliveries').description('The delivery log, newest first').option('--endpoint <id>', 'only this endpoint').option('--limit <n>', 'at most this many (default 100)')).action(
    async (options: { readonly endpoint?: string; readonly limit?: string }, command: Command) => {
      await withSession(command, io, async (session) => {
        const request = { ...(options.endpoint === undefined ? {} : { endpoint: idOf(options.endpoint) }), ...(options.limit === undefined ? {} : { limit: idOf(options.limit) }) };
        const deliveries = await session.run('webhooks/deliveries', request, { endpoint: '--endpoint', limit: '--limit' });
        session.output(deliveries, () =>
          io.stdout(
            table(
              ['id', 'endpoint', 'event', 'type', 'state', 'attempts', 'last attempt', 'queued'],
              deliveries.map((delivery) => [
                String(delivery.id),
                String(delivery.endpointId),
                delivery.redeliveryOf === null ? delivery.eventId : `${delivery.eventId} (again, of ${delivery.redeliveryOf})`,
                delivery.eventType,
                delivery.state === 'elsewhere' ? 'sent by another workstation' : delivery.state,
                String(delivery.attempts.length),
                lastAttemptText(delivery),
                session.time(delivery.createdAt),
              ]),
            ),
          ),
        );
      });
    },
  );

  addEngineOptions(webhooks.command('redeliver').description('Send a delivery\'s event again (same event id), now').argument('<id>', 'the delivery id (webhooks deliveries)')).action(
    async (id: string, _options: unknown, command: Command) => {
      await withSession(command, io, async (session) => {
        const queued = await session.run('webhooks/redeliver', { id: idOf(id) }, { id: 'ID' });
        session.output(queued, () => session.say(`event ${queued.eventId} queued again as delivery ${queued.id}: the desktop app sends it`));
      });
    },
  );
};
