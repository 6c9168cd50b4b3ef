import { AppError } from '../errors.ts';
import type { WebhookService } from '../modules/integrations/webhook.service.ts';
import type { Metrics } from './metrics.ts';

/** The webhook service, counting each call by its result. */
export function countWebhookCalls(webhooks: WebhookService, metrics: Metrics): WebhookService {
  return {
    async handle(alias, headers, body) {
      try {
        const result = await webhooks.handle(alias, headers, body);
        metrics.webhookCall(result.started.length > 0 ? 'started' : 'nothing_started');
        return result;
      } catch (error) {
        metrics.webhookCall(error instanceof AppError && error.status === 404 ? 'unknown_alias' : 'failed');
        throw error;
      }
    },
  };
}
