import { describe, expect, it, vi } from 'vitest';
import { projectsApi, teamApi, usersApi } from '@gantry/contract';
import { ApiError, api, buildUrl, getErrorMessage, toApiError } from './api-client.ts';
import { fakeFetch, json, stubFetch } from '../testing/render.tsx';

describe('buildUrl', () => {
  it('fills path parameters and appends defined query values', () => {
    expect(buildUrl(teamApi.list.path, { projectId: 7 }, { sort: 'name', order: 'asc', skip: undefined })).toBe(
      '/api/project/7/users?sort=name&order=asc',
    );
  });

  it('refuses a path with a missing parameter', () => {
    expect(() => buildUrl('/api/project/:projectId', {})).toThrow(/projectId/);
  });
});

describe('toApiError', () => {
  it('takes the text and code of the error body', () => {
    const error = toApiError(409, 'Conflict', JSON.stringify({ error: 'Key is in use', code: 'in_use' }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe('Key is in use');
    expect(error.code).toBe('in_use');
    expect(error.status).toBe(409);
  });

  it('falls back to status and status text for an empty body, as for a bare 401', () => {
    expect(toApiError(401, 'Unauthorized', '').message).toBe('401 Unauthorized');
  });

  it('never shows a non-JSON body', () => {
    expect(toApiError(502, 'Bad Gateway', '<html>proxy error</html>').message).toBe('502 Bad Gateway');
    expect(toApiError(500, '', '').message).toBe('Request failed with status 500');
  });
});

describe('api', () => {
  it('sends JSON with the session cookie and parses the response', async () => {
    const project = {
      id: 3,
      name: 'Infra',
      created: '2025-01-01T00:00:00Z',
      alert: false,
      alert_chat: null,
      max_parallel_tasks: 0,
      type: '',
      default_secret_storage_id: null,
    };
    const { fetchImpl, calls } = fakeFetch({ 'POST /api/projects': () => json(201, project) });
    const spy = vi.fn(fetchImpl);
    vi.stubGlobal('fetch', spy);

    await expect(api(projectsApi.create, { body: { name: 'Infra' } })).resolves.toEqual(project);
    expect(calls).toEqual([{ method: 'POST', url: '/api/projects', body: { name: 'Infra' } }]);
    const init = spy.mock.calls[0]?.[1];
    expect(init?.credentials).toBe('include');
    expect(init?.headers).toMatchObject({ 'Content-Type': 'application/json' });
  });

  it('accepts the empty body of a 204', async () => {
    stubFetch({ 'DELETE /api/users/5': () => new Response(null, { status: 204 }) });
    await expect(api(usersApi.remove, { params: { userId: 5 } })).resolves.toBeUndefined();
  });

  it('throws an ApiError carrying the error field of a failure', async () => {
    stubFetch({ 'PUT /api/project/1': () => json(400, { error: 'Project ID in body and URL must be the same' }) });
    const failure = api(projectsApi.update, { params: { projectId: 1 }, body: { name: 'x', id: 2 } });
    await expect(failure).rejects.toMatchObject({
      status: 400,
      message: 'Project ID in body and URL must be the same',
    });
  });

  it('reports a response that breaks the contract instead of passing it on', async () => {
    stubFetch({ 'GET /api/projects': () => json(200, [{ id: 'one' }]) });
    await expect(api(projectsApi.list)).rejects.toThrow(/Unexpected response from GET \/api\/projects/);
  });
});

describe('getErrorMessage', () => {
  it('prefers the server text, then the client message', () => {
    expect(getErrorMessage(new ApiError(400, 'Name cannot be empty'))).toBe('Name cannot be empty');
    expect(getErrorMessage(new TypeError('Failed to fetch'))).toBe('Failed to fetch');
    expect(getErrorMessage(undefined)).toBe('Unknown error');
  });
});
