/**
 * Input attributes of text a machine reads (a login, a path, a URL, a name of a variable, code): it is meant
 * exactly as typed, so no spell check marks it, and phones neither capitalise nor correct it.
 */
export const VERBATIM_INPUT = { spellCheck: false, autoCapitalize: 'none', autoCorrect: 'off' } as const;
