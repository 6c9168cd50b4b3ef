import { z } from 'zod';
import { projectEndpoint } from './endpoint.ts';

/** How one alert channel took the test alert; `error` says why it did not (never the channel's URL). */
export const AlertChannelDelivery = z.object({
  name: z.string(),
  delivered: z.boolean(),
  error: z.string().nullable(),
});
export type AlertChannelDelivery = z.infer<typeof AlertChannelDelivery>;

export const AlertTestResult = z.object({ channels: z.array(AlertChannelDelivery) });
export type AlertTestResult = z.infer<typeof AlertTestResult>;

export const alertsApi = {
  /** Sends a test alert through every channel the server is configured for (Semaphore: notifications/test). */
  test: projectEndpoint('/notifications/test', { method: 'POST', response: AlertTestResult }),
};
