import { afterAll, beforeAll } from 'vitest';
import { createProjectFixture, type ProjectFixture } from './task-fixture.ts';
import { createPeerNode, createTestApp, listen, type TestApp } from './test-app.ts';
import { TEST_REDIS_URL } from './test-databases.ts';
import type { Dialect } from '../src/db/database.ts';

/** Two nodes of one installation, both on the bus, a project created on A, and B listening at `urlB()`. */
export interface TwoNodes {
  a: TestApp;
  b: TestApp;
  p: ProjectFixture;
  urlB(): string;
}

/**
 * The two nodes of a describe block, sharing one `dialect` store and the test Redis, with a project of
 * `files` on A: started before its first test, closed after its last. The returned objects are filled
 * in by the block's first beforeAll, so hooks registered after this call and the tests use them as they are.
 */
export function useTwoNodes(dialect: Dialect, files: Record<string, string>): TwoNodes {
  const a = {} as TestApp;
  const b = {} as TestApp;
  const p = {} as ProjectFixture;
  let urlB = '';
  beforeAll(async () => {
    Object.assign(a, await createTestApp(dialect, { redis_url: TEST_REDIS_URL }));
    Object.assign(b, await createPeerNode(a));
    await Promise.all([a.runtime.services.clusterBus?.ready, b.runtime.services.clusterBus?.ready]);
    Object.assign(p, await createProjectFixture(a, files));
    urlB = await listen(b.app);
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });
  return { a, b, p, urlB: () => urlB };
}
