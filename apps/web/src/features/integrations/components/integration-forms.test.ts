import { describe, expect, it } from 'vitest';
import type { Integration } from '@gantry/contract';
import {
  ExtractValueFormSchema,
  IntegrationFormSchema,
  MatcherFormSchema,
  getExtractValueDefaults,
  getIntegrationDefaults,
  getMatcherDefaults,
  toExtractValueBody,
  toIntegrationBody,
  toMatcherBody,
} from './integration-forms.ts';

const messages = (result: { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]));

describe('integration forms', () => {
  it('reports every missing matcher field at once with the seed messages', () => {
    expect(messages(MatcherFormSchema.safeParse(getMatcherDefaults()))).toEqual({
      name: 'Name is required',
      match_type: 'Match source is required',
      method: 'Comparison method is required',
      value: 'Value is required',
    });
    expect(
      messages(
        MatcherFormSchema.safeParse({
          ...getMatcherDefaults(),
          name: 'x',
          match_type: 'body',
          method: 'equals',
          value: 'v',
        }),
      ),
    ).toEqual({
      body_data_type: 'Body data format is required',
      key: 'Key is required',
    });
    // A whole body taken as text has no key to look up.
    expect(
      MatcherFormSchema.safeParse({
        ...getMatcherDefaults(),
        name: 'x',
        match_type: 'body',
        body_data_type: 'string',
        method: 'contains',
        value: 'v',
      }).success,
    ).toBe(true);
  });

  it("reports missing extracted value fields, the value source in the seed's spelling", () => {
    expect(messages(ExtractValueFormSchema.safeParse(getExtractValueDefaults()))).toEqual({
      name: 'Name is required',
      value_source: 'Value Source is required',
      variable: 'Variable is required',
    });
    expect(
      messages(
        ExtractValueFormSchema.safeParse({
          ...getExtractValueDefaults(),
          name: 'x',
          value_source: 'header',
          variable: 'V',
        }),
      ),
    ).toEqual({ key: 'Key is required' });
  });

  it('asks for the header and the secret only for the methods that use them', () => {
    const base = { ...getIntegrationDefaults(), name: 'hook', template_id: 3 };
    expect(IntegrationFormSchema.safeParse(base).success).toBe(true);
    expect(messages(IntegrationFormSchema.safeParse({ ...base, auth_method: 'hmac' }))).toEqual({
      auth_header: 'Auth header is required',
      auth_secret_id: 'Auth secret is required',
    });
    expect(messages(IntegrationFormSchema.safeParse({ ...base, auth_method: 'github' }))).toEqual({
      auth_secret_id: 'Auth secret is required',
    });
    expect(messages(IntegrationFormSchema.safeParse(getIntegrationDefaults()))).toEqual({
      name: 'Name is required',
      template_id: 'Template is required',
    });
  });

  it('builds bodies that drop what does not apply and keep what the dialog does not edit', () => {
    const integration: Integration = {
      id: 4,
      project_id: 1,
      name: 'old',
      template_id: 3,
      auth_method: 'token',
      auth_header: 'X-Token',
      auth_secret_id: 9,
      searchable: true,
      task_params: { message: 'm' },
    };
    expect(
      toIntegrationBody({ ...getIntegrationDefaults(integration), name: ' new ', auth_method: '' }, 1, integration),
    ).toEqual({
      id: 4,
      project_id: 1,
      searchable: true,
      task_params: { message: 'm' },
      name: 'new',
      template_id: 3,
      auth_method: '',
      auth_header: '',
      auth_secret_id: null,
    });
    expect(
      toMatcherBody(
        { name: 'm', match_type: 'header', body_data_type: 'json', key: ' X-Event ', method: 'equals', value: 'push' },
        4,
      ),
    ).toEqual({
      integration_id: 4,
      name: 'm',
      match_type: 'header',
      body_data_type: '',
      key: 'X-Event',
      method: 'equals',
      value: 'push',
    });
    expect(
      toExtractValueBody(
        {
          name: 'all',
          value_source: 'body',
          body_data_type: 'string',
          key: 'ignored',
          variable: 'BODY',
          variable_type: 'task',
        },
        4,
      ),
    ).toMatchObject({ key: '', body_data_type: 'string', variable_type: 'task' });
  });

  it('starts a workflow instead of a template when the form says so', () => {
    const fields = { ...getIntegrationDefaults(), name: 'Hook', target: 'workflow' as const };
    expect(IntegrationFormSchema.safeParse(fields).error?.issues.map((i) => i.message)).toEqual([
      'Workflow is required',
    ]);
    const body = toIntegrationBody({ ...fields, workflow_id: 3 }, 1);
    expect(body).toMatchObject({ name: 'Hook', workflow_id: 3 });
    expect(body).not.toHaveProperty('template_id');
  });
});
