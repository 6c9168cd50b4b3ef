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

/**
 * The first answer that breaks the template's survey: a required variable left empty, a value of
 * the wrong type, an enum value the template does not declare, or a secret sent in `environment`.
 * Undefined when every answer fits.
 */
export function findSurveyAnswerProblem(
  questions: readonly SurveyQuestion[],
  answers: SurveyAnswers,
): SurveyAnswerProblem | undefined {
  for (const question of questions) {
    const problem = (message: string) => ({ name: question.name, message });
    if (question.type === 'secret' && Object.hasOwn(answers.environment, question.name)) {
      return problem(SURVEY_ANSWER_MESSAGES.secretInEnvironment(question.name));
    }
    const source = question.type === 'secret' ? answers.secret : answers.environment;
    const value = Object.hasOwn(source, question.name) ? source[question.name] : undefined;
    if (value === undefined || value === null || value === '') {
      if (question.required) return problem(SURVEY_ANSWER_MESSAGES.required(question.title));
      continue;
    }
    if (!isSingleValue(value)) return problem(SURVEY_ANSWER_MESSAGES.notSingleValue(question.title));
    if (question.required && String(value).trim() === '')
      return problem(SURVEY_ANSWER_MESSAGES.required(question.title));
    if (question.type === 'int' && !isSurveyInteger(value))
      return problem(SURVEY_ANSWER_MESSAGES.mustBeInteger(question.title));
    if (question.type === 'enum' && !question.values.some((v) => v.value === String(value))) {
      return problem(SURVEY_ANSWER_MESSAGES.notOneOfValues(question.title));
    }
  }
  return undefined;
}
