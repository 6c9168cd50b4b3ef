/** An enum survey variable offering `values` (each label to its value), as a template declares it. */
export function enumSurveyVar(name: string, title: string, values: Record<string, string>) {
  return {
    name,
    title,
    type: 'enum' as const,
    values: Object.entries(values).map(([label, value]) => ({ name: label, value })),
  };
}
