/** An enum survey variable offering `values` (each label to its value), as a template declares it. */
export function enumSurveyVar(name: string, title: string, values: Record<string, string>) {
  return {
    name,
    title,
    type: 'enum' as const,
    values: Object.entries(values).map(([label, value]) => ({ name: label, value })),
  };
}

/** A survey with a required text and an optional integer: the answers a task request's checks are tried on. */
export const VERSION_AND_COUNT_SURVEY = [
  { name: 'version', title: 'Version', required: true },
  { name: 'count', title: 'Count', type: 'int' },
];
