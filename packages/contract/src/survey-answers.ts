import type { SurveyVarType } from './templates.ts';

/** What the answer check needs of a template's survey variable. */
export interface SurveyQuestion {
  name: string;
  title: string;
  type: SurveyVarType;
  required: boolean;
  values: { name: string; value: string }[];
}

/** A task's answers: plain ones travel in `environment`, secret ones only in `secret`. */
export interface SurveyAnswers {
  environment: Record<string, unknown>;
  secret: Record<string, unknown>;
}

export interface SurveyAnswerProblem {
  /** The survey variable's name. */
  name: string;
  message: string;
}

export const SURVEY_ANSWER_MESSAGES = {
  required: (title: string) => `${title} is required`,
  mustBeInteger: (title: string) => `${title}: Must be integer`,
  notOneOfValues: (title: string) => `${title} must be one of its values`,
  notSingleValue: (title: string) => `${title} must be a single value, not a list or an object`,
  // A secret in `environment` would be stored in the clear, shown to every project member and put on the command line.
  secretInEnvironment: (name: string) =>
    `Survey variable "${name}" is a secret: send it in "secret", not in "environment"`,
};

const INTEGER_TEXT = /^-?[0-9]+$/;

function isSingleValue(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/** Whether an integer survey variable takes the value: a whole number, as a number or in digits. Its default must pass too. */
export function isSurveyInteger(value: string | number | boolean): boolean {
  if (typeof value === 'number') return Number.isSafeInteger(value);
  return typeof value === 'string' && INTEGER_TEXT.test(value) && Number.isSafeInteger(Number(value));
}

/** What can be wrong with one answer; the keys of the answer messages. */
export type SurveyValueFault = 'required' | 'mustBeInteger' | 'notOneOfValues' | 'notSingleValue';

/**
 * What is wrong with one variable's answer: a required one left empty or blank, a value of the wrong
 * type, or an enum value the template does not declare. Undefined when the answer fits.
 */
export function findSurveyValueFault(question: SurveyQuestion, value: unknown): SurveyValueFault | undefined {
  if (value === undefined || value === null || value === '') return question.required ? 'required' : undefined;
  if (!isSingleValue(value)) return 'notSingleValue';
  if (question.required && String(value).trim() === '') return 'required';
  if (question.type === 'int' && !isSurveyInteger(value)) return 'mustBeInteger';
  if (question.type === 'enum' && !question.values.some((v) => v.value === String(value))) return 'notOneOfValues';
  return undefined;
}

/**
 * The first answer that breaks the template's survey (see findSurveyValueFault), or a secret sent
 * in `environment`. Undefined when every answer fits.
 */
export function findSurveyAnswerProblem(
  questions: readonly SurveyQuestion[],
  answers: SurveyAnswers,
): SurveyAnswerProblem | undefined {
  for (const question of questions) {
    if (question.type === 'secret' && Object.hasOwn(answers.environment, question.name)) {
      return { name: question.name, message: SURVEY_ANSWER_MESSAGES.secretInEnvironment(question.name) };
    }
    const source = question.type === 'secret' ? answers.secret : answers.environment;
    const fault = findSurveyValueFault(
      question,
      Object.hasOwn(source, question.name) ? source[question.name] : undefined,
    );
    if (fault) return { name: question.name, message: SURVEY_ANSWER_MESSAGES[fault](question.title) };
  }
  return undefined;
}
