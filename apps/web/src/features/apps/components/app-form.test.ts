import { describe, expect, it } from 'vitest';
import { buildAppFormSchema, getAppFormDefaults } from './app-form.ts';

const issues = (result: { error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) =>
  result.error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`) ?? [];

describe('app form', () => {
  it('requires an id for a new app only', () => {
    // The form shows a field's first issue.
    expect(issues(buildAppFormSchema(true).safeParse(getAppFormDefaults()))[0]).toBe('id: ID is required');
    expect(issues(buildAppFormSchema(true).safeParse({ ...getAppFormDefaults(), id: 'My App' }))).toEqual([
      'id: ID may hold only lower-case letters, digits, - and _',
    ]);
    expect(buildAppFormSchema(false).safeParse({ ...getAppFormDefaults(), id: 'ansible' }).success).toBe(true);
  });

  it('reads the priority from text and drops blank arguments', () => {
    const values = buildAppFormSchema(true).parse({
      ...getAppFormDefaults(),
      id: 'ruby',
      priority: '300',
      args: ['-W0', '  ', ' script.rb '],
    });
    expect(values).toMatchObject({ id: 'ruby', priority: 300, args: ['-W0', 'script.rb'] });
    expect(buildAppFormSchema(true).parse({ ...getAppFormDefaults(), id: 'ruby' }).priority).toBeUndefined();
    expect(
      issues(buildAppFormSchema(true).safeParse({ ...getAppFormDefaults(), id: 'ruby', priority: 'high' })),
    ).toEqual(['priority: Priority must be a number']);
  });
});
