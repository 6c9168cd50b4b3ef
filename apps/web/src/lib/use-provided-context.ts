import { useContext, type Context } from 'react';

/**
 * The value of a context that only its provider sets: a component rendered outside that provider is
 * a wiring mistake, which fails loudly here rather than as an undefined value further on.
 */
export function useProvidedContext<T>(context: Context<T | null>, hookName: string, providerName: string): T {
  const value = useContext(context);
  if (!value) throw new Error(`${hookName} must be used inside ${providerName}`);
  return value;
}
