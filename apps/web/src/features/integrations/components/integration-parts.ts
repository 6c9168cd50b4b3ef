/** The rules an integration applies to each request: the values it extracts, and its matchers. */
export type IntegrationPart = 'value' | 'matcher';

const NOUNS = { value: 'Value', matcher: 'Matcher' } as const;

/**
 * A part's translation keys in the integrations section; for matchers: `matchers`, `matchersHint`,
 * `noMatchers`, `newMatcher`, `editMatcher`, `matcherCreated`, `matcherSaved`, `deleteMatcherTitle`,
 * `deleteMatcherConfirm`, `matcherDeleted`.
 */
export function partTextsOf(part: IntegrationPart) {
  const noun = NOUNS[part];
  return {
    title: `integrations.${part}s`,
    hint: `integrations.${part}sHint`,
    empty: `integrations.no${noun}s`,
    /** The dialog's (useItemFormDialog). */
    item: {
      newTitle: `integrations.new${noun}`,
      editTitle: `integrations.edit${noun}`,
      created: `integrations.${part}Created`,
      saved: `integrations.${part}Saved`,
    },
    /** The delete flow's (useItemDelete). */
    delete: {
      title: `integrations.delete${noun}Title`,
      confirm: `integrations.delete${noun}Confirm`,
      deleted: `integrations.${part}Deleted`,
    },
  };
}
