import { SurveyVar, findSurveyAnswerProblem, type SurveyQuestion } from '@gantry/contract';
import { describe, expect, it } from 'vitest';
import { enumSurveyVar } from './survey-fixture.ts';

const question = (fields: Partial<SurveyQuestion> & { name: string }): SurveyQuestion => ({
  title: fields.name.toUpperCase(),
  type: '',
  required: false,
  values: [],
  ...fields,
});

const QUESTIONS = [
  question({ name: 'version', title: 'Version', required: true }),
  question({ name: 'count', title: 'Count', type: 'int' }),
  question(enumSurveyVar('region', 'Region', { Europe: 'eu', Asia: 'ap' })),
  question({ name: 'token', title: 'Token', type: 'secret', required: true }),
];

const check = (environment: Record<string, unknown>, secret: Record<string, unknown> = { token: 's3cret' }) =>
  findSurveyAnswerProblem(QUESTIONS, { environment, secret })?.message;

describe('survey answers', () => {
  it('accepts answers that fit every variable, optional ones left out', () => {
    expect(check({ version: '1.2' })).toBeUndefined();
    expect(check({ version: '1.2', count: 5, region: 'ap' })).toBeUndefined();
    expect(check({ version: '1.2', count: '-12', region: null })).toBeUndefined();
  });

  it('requires required variables, blank text counting as missing, secrets in secret', () => {
    expect(check({})).toBe('Version is required');
    expect(check({ version: ' \t' })).toBe('Version is required');
    expect(check({ version: '1' }, {})).toBe('Token is required');
    expect(check({ version: '1' }, { token: '' })).toBe('Token is required');
  });

  it('takes whole numbers only for integer variables, as numbers or digits', () => {
    for (const count of ['x1', '1.5', 1.5, true, '', 2 ** 60]) {
      const expected = count === '' ? undefined : 'Count: Must be integer';
      expect(check({ version: '1', count }), String(count)).toBe(expected);
    }
  });

  it('takes only a declared value for enum variables', () => {
    expect(check({ version: '1', region: 'us' })).toBe('Region must be one of its values');
    expect(check({ version: '1', region: 'Europe' })).toBe('Region must be one of its values');
    expect(check({ version: '1', region: 'eu' })).toBeUndefined();
  });

  it('refuses lists and objects as answers', () => {
    expect(check({ version: ['1'] })).toBe('Version must be a single value, not a list or an object');
    expect(check({ version: '1', region: { value: 'eu' } })).toBe(
      'Region must be a single value, not a list or an object',
    );
  });

  it('refuses a secret answer sent in environment, even alongside the right one, naming the variable', () => {
    const problem = findSurveyAnswerProblem(QUESTIONS, {
      environment: { version: '1', token: 'x' },
      secret: { token: 'x' },
    });
    expect(problem).toEqual({
      name: 'token',
      message: 'Survey variable "token" is a secret: send it in "secret", not in "environment"',
    });
  });

  it('does not read inherited properties as answers', () => {
    expect(
      findSurveyAnswerProblem([question({ name: 'toString', title: 'Text', required: true })], {
        environment: {},
        secret: {},
      })?.message,
    ).toBe('Text is required');
  });

  it('takes as an integer default only what a task may then answer with it', () => {
    const withDefault = (default_value: string) =>
      SurveyVar.safeParse({ name: 'count', title: 'Count', type: 'int', default_value });
    expect(withDefault('-12').success).toBe(true);
    expect(withDefault('99999999999999999999').success).toBe(false);
    expect(withDefault('1.5').success).toBe(false);
    expect(check({ version: '1', count: '99999999999999999999' })).toBe('Count: Must be integer');
  });
});
