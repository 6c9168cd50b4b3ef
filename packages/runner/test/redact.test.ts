import { describe, expect, it } from 'vitest';
import { createRedactor } from '../src/redact.ts';

describe('createRedactor', () => {
  it('masks every occurrence of every secret, longest first', () => {
    const redact = createRedactor(['hunter22', 'hunter22-extended', 'a.b*c']);
    expect(redact('pw=hunter22-extended and hunter22, regex a.b*c')).toBe('pw=******** and ********, regex ********');
  });

  it('masks each line of a multi-line secret', () => {
    const redact = createRedactor(['-----BEGIN KEY-----\nAAAABBBBCCCC\n-----END KEY-----']);
    expect(redact('AAAABBBBCCCC')).toBe('********');
  });

  it('ignores secrets too short to mask safely', () => {
    expect(createRedactor(['ab', ''])('ab cd')).toBe('ab cd');
  });
});
