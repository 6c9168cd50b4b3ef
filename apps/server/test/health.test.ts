import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp, useTestApp } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';

const dialects = await listTestDialects();

describe.each(dialects)('health and readiness probes (%s)', (dialect) => {
  const t = useTestApp(dialect);
  afterAll(async () => {
    t.runtime.services.scheduler.stop();
  });

  it('answers /api/health without signing in and without caching', async () => {
    const response = await t.request('GET', '/api/health');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok' });
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('is not ready while the scheduler is stopped, and ready once it runs', async () => {
    const before = await t.request('GET', '/api/ready');
    expect(before.status).toBe(503);
    expect(before.body).toEqual({
      status: 'not_ready',
      checks: { store: 'ok', migrations: 'ok', scheduler: 'stopped' },
    });
    t.runtime.services.scheduler.start();
    const after = await t.request('GET', '/api/ready');
    expect(after.status).toBe(200);
    expect(after.body).toEqual({ status: 'ready', checks: { store: 'ok', migrations: 'ok', scheduler: 'ok' } });
  });

  it('is not ready while a migration of this build is not applied to the store', async () => {
    t.runtime.services.scheduler.start();
    const db = t.runtime.connection.db;
    await sql`delete from gantry_migration where name = ${'0009-cluster-nodes'}`.execute(db);
    try {
      const response = await t.request('GET', '/api/ready');
      expect(response.status).toBe(503);
      expect(response.body).toMatchObject({ status: 'not_ready', checks: { store: 'ok', migrations: '1 pending' } });
    } finally {
      await sql`insert into gantry_migration (name, timestamp) values (${'0009-cluster-nodes'}, ${new Date().toISOString()})`.execute(
        db,
      );
    }
    expect((await t.request('GET', '/api/ready')).status).toBe(200);
  });
});

describe.each(dialects)('readiness with the store gone (%s)', (dialect) => {
  it('answers 503 naming the store, not 500, when the store cannot be reached', async () => {
    const t = await createTestApp(dialect);
    t.runtime.services.scheduler.start();
    t.runtime.services.scheduler.stop();
    await t.runtime.connection.db.destroy();
    const response = await t.app.inject({ method: 'GET', url: '/api/ready' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      status: 'not_ready',
      checks: { store: 'unreachable', migrations: 'unknown', scheduler: 'stopped' },
    });
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    await t.close();
  });
});
