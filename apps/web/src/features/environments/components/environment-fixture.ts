import type { Environment } from '@gantry/contract';

/** A saved variable group with a secret of each type and one a change leaves alone (UNTOUCHED). */
export const savedEnvironment: Environment = {
  id: 4,
  project_id: 1,
  name: 'prod',
  json: '{"region": "eu"}',
  env: '{}',
  password: null,
  secrets: [
    { id: 10, name: 'DB_PASSWORD', type: 'env', secret: '', operation: '' },
    { id: 11, name: 'api_token', type: 'var', secret: '', operation: '' },
    { id: 12, name: 'UNTOUCHED', type: 'env', secret: '', operation: '' },
  ],
};
