import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden, unauthorized } from '../errors.ts';
import { isSameSecret } from '../secrets/secret-hash.ts';
import { readBearerToken, readSessionCookie } from '../http/session-cookie.ts';
import type { AuthService } from '../modules/auth/auth.service.ts';
import type { Metrics } from './metrics.ts';

export interface MetricsRouteDeps {
  metrics: Metrics;
  auth: AuthService;
  /** A bearer token for scrapers (GANTRY_METRICS_TOKEN); empty means only administrators may read. */
  metricsToken: string;
}

/**
 * GET /api/metrics in Prometheus' text format, for a scraper holding the metrics token or an
 * administrator (session or API token). Every request's duration is recorded by its route pattern,
 * never its raw URL, so random paths cannot multiply the series.
 */
export function registerMetrics(app: FastifyInstance, deps: MetricsRouteDeps): void {
  app.addHook('onResponse', async (request, reply) => {
    deps.metrics.observeHttp(
      request.method,
      request.routeOptions.url ?? 'unmatched',
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
  });

  async function assertMayRead(request: FastifyRequest): Promise<void> {
    const bearer = readBearerToken(request);
    if (bearer && deps.metricsToken && isSameSecret(bearer, deps.metricsToken)) return;
    const user = (await deps.auth.findCaller(bearer, readSessionCookie(request)))?.user;
    if (!user) throw unauthorized();
    if (user.admin !== 1) throw forbidden('Only administrators and the metrics token can read metrics');
  }

  app.get('/api/metrics', { schema: { hide: true } }, async (request, reply) => {
    await assertMayRead(request);
    return reply
      .header('cache-control', 'no-store')
      .type(deps.metrics.contentType)
      .send(await deps.metrics.render());
  });
}
