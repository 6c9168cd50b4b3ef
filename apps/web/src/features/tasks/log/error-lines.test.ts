import { describe, expect, it } from 'vitest';
import { ERROR_LINE_PATTERN } from './error-lines.ts';

const looksLikeError = (line: string) => new RegExp(ERROR_LINE_PATTERN).test(line);

describe('ERROR_LINE_PATTERN', () => {
  it.each([
    'fatal: [web1]: UNREACHABLE! => {"changed": false}',
    'failed: [db] (item=x) => {"msg": "FAILED!"}',
    'ERROR! the playbook: site.yml could not be found',
    'web1                       : ok=3    changed=0    unreachable=0    failed=2    skipped=0',
    '│ Error: Invalid provider configuration',
    'Error: No configuration files',
    'Traceback (most recent call last):',
    'ERROR: deployment failed',
    'error: pathspec did not match',
    'Error connecting to host',
    '  ERROR something',
  ])('finds %j', (line) => expect(looksLikeError(line)).toBe(true));

  it.each([
    'web1                       : ok=3    changed=0    unreachable=0    failed=0    skipped=0',
    'no errors found',
    'errors: 0',
    'TASK [install] ****',
    'ignoring error_log setting',
    'the word Error in the middle',
  ])('ignores %j', (line) => expect(looksLikeError(line)).toBe(false));
});
