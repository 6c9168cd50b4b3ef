import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { REDACTED, createRedactor } from '../src/redact.ts';
import { MAX_LINE_LENGTH } from '../src/run-process.ts';
import { createStepRunner } from '../src/step-runner.ts';

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

  it('masks overlapping secrets as one span, and a secret whose anchor is inside another one', () => {
    const redact = createRedactor(['abcdefgh', 'cdefghij', 'Xabcdefgh9', "a'b'c'd"]);
    expect(redact('<abcdefghij> <Xabcdefgh9> <abcdefgh>')).toBe('<********> <********> <********>');
    expect(redact("say 'a'\\''b'\\''c'\\''d'")).toBe("say '********'");
  });

  it('judges the length on the raw value: a short secret stays unmasked in its longer encodings too', () => {
    const redact = createRedactor(['é"']);
    expect(redact('"\\u00e9\\"" %C3%A9%22')).toBe('"\\u00e9\\"" %C3%A9%22');
  });
});

/** Secrets with everything that changes in an encoding: quotes, backslashes, spaces, $, `, non-ASCII, controls. */
const SECRETS = {
  punctuation: `p'a"s s\\w$rd é日本\`!`,
  multiLine: `first 'line' é\nsecond\t"line" 日本 $HOME\\n`,
  urlish: 'a/b+c%d=e&f<g>?h#i~j*k',
  astral: 'emoji 😀 and ünï',
};

/** Each secret as the real tools print it, one output line per entry. */
function printWithTools(secret: string): { tool: string; line: string }[] {
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: os.tmpdir(), LANG: 'C.UTF-8', S: secret };
  const python = `
import base64, json, os, shlex, urllib.parse
s = os.environ['S']
b = s.encode()
for name, value in [
    ('repr', repr(s)), ('ascii', ascii(s)), ('bytes repr', repr(b)),
    ('json.dumps', json.dumps(s)), ('json.dumps non-ascii', json.dumps(s, ensure_ascii=False)), ('json.dumps twice', json.dumps(json.dumps(s))[3:-3]),
    ('quote', urllib.parse.quote(s)), ('quote safe=""', urllib.parse.quote(s, safe='')), ('quote_plus', urllib.parse.quote_plus(s)),
    ('urlencode', urllib.parse.urlencode({'p': s})), ('shlex.quote', shlex.quote(s)),
    ('b64encode', base64.b64encode(b).decode()), ('urlsafe_b64encode', base64.urlsafe_b64encode(b).decode()),
    ('basic auth', base64.b64encode(b'deploy:' + b).decode()), ('basic auth, 2-byte login', base64.b64encode(b'ab:' + b).decode()),
]:
    for line in value.split('\\n'):
        print(name + '\\t' + line)
`;
  const bash = `
for locale in C.UTF-8 C; do LC_ALL=$locale printf 'printf %%q %s\\t%q\\n' "$locale" "$S"; done
declare -p S | sed 's/^/declare -p\\t/'
printf '@Q\\t%s\\n' "\${S@Q}"
( set -x; : "$S" ) 2>&1 | sed 's/^/set -x\\t/'
printf '%s\\n' "$S" | sed 's/^/echo\\t/'
`;
  const output =
    execFileSync('python3', ['-c', python], { env, encoding: 'utf8' }) +
    execFileSync('bash', ['-c', bash], { env, encoding: 'utf8' });
  const js = [
    ['JSON.stringify', JSON.stringify(secret)],
    ['JSON with \\/', JSON.stringify(secret).replace(/\//g, '\\/')],
    ['JSON of JSON', JSON.stringify(JSON.stringify(secret)).slice(3, -3)],
    ['encodeURIComponent', encodeURIComponent(secret)],
    ['encodeURIComponent lower-case hex', encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase())],
    ['URLSearchParams', new URLSearchParams({ p: secret }).toString()],
    ['base64url', Buffer.from(secret).toString('base64url')],
  ];
  return [
    ...output
      .trimEnd()
      .split('\n')
      .map((entry) => ({ tool: entry.slice(0, entry.indexOf('\t')), line: entry.slice(entry.indexOf('\t') + 1) })),
    ...js.map(([tool = '', line = '']) => ({ tool, line })),
  ];
}

/** What may remain of a line once the secret is masked: quoting around it, a known prefix, base64 edges. */
const ALLOWED_REMAINDER =
  /^(?:b|\$|p=|\+* : |declare -[x-] S=\$?|ZGVwbG95O[A-Za-z0-9+/]?|YWI6[A-Za-z0-9+/]?)?['"]?['"]?[A-Za-z0-9+/=]{0,3}$/;

describe.each(Object.entries(SECRETS))('a %s secret', (_, secret) => {
  const redact = createRedactor([secret]);
  const lines = printWithTools(secret);

  it.each(lines.map(({ tool, line }) => [tool, line]))('is masked as %s prints it: %s', (tool, line) => {
    const clean = redact(line);
    expect(clean, tool).toContain(REDACTED);
    expect(clean.split(REDACTED).join(''), tool).toMatch(ALLOWED_REMAINDER);
  });
});

describe('masking across a cut line', () => {
  const secret = `cut-across "secret" é`;

  it('settle keeps back what a later piece could complete and masks what cannot change', () => {
    const redact = createRedactor([secret]);
    const encoded = JSON.stringify(secret).slice(1, -1);
    const head = `${'x'.repeat(100)}${encoded} and ${encoded.slice(0, 10)}`;
    const { settled, rest } = redact.settle(head);
    expect(settled).toBe(`${'x'.repeat(100)}${REDACTED}`);
    expect(rest).toBe(` and ${encoded.slice(0, 10)}`);
    expect(redact(rest + encoded.slice(10))).toBe(` and ${REDACTED}`);
  });

  it('a step masks a secret its process prints across the 64 KiB cut of a long line', async () => {
    const lines: string[] = [];
    const steps = createStepRunner({
      baseEnv: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8' },
      signal: new AbortController().signal,
      forceKill: () => false,
      redact: createRedactor([secret]),
      emit: (line) => lines.push(line),
    });
    // The secret starts 5 characters before the cut, once raw and once JSON-encoded in the next piece's cut.
    const script = `
      head -c ${MAX_LINE_LENGTH - 5} /dev/zero | tr '\\0' a; printf '%s' "$S"
      head -c ${MAX_LINE_LENGTH - 5 - secret.length - 5} /dev/zero | tr '\\0' b; printf '%s\\n' "$J"
      echo "after $S"`;
    const code = await steps.exec({
      command: 'bash',
      args: ['-c', script],
      cwd: os.tmpdir(),
      env: { S: secret, J: JSON.stringify(secret).slice(1, -1) },
    });
    expect(code).toBe(0);
    const output = lines.slice(1).join('');
    expect(output).not.toContain('cut-across');
    expect(output.split(REDACTED)).toHaveLength(4);
    expect(lines.at(-1)).toBe(`after ${REDACTED}`);
    expect(output.replaceAll(REDACTED, '').replace(/after $/, '')).toMatch(/^a+b+$/);
  });
});

describe('redaction cost', () => {
  it('a line built to make the pattern backtrack is redacted in linear time', () => {
    const redact = createRedactor([
      `'\\'\\''\\\\'x`,
      "''''''''''''''''''''''''''''''''y",
      '%%%%%%%%%%%%%%%%%%%%%%%%%%z',
    ]);
    const hostile = `'\\''`.repeat(16_000) + '\\\\'.repeat(8_000) + '%25%'.repeat(8_000);
    const started = performance.now();
    for (let i = 0; i < 10; i++) redact(hostile);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
