import { closeSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openRegularFile, readAtMost } from '../src/regular-file.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'gantry-regular-file-'));

function readFile(content: string | Buffer, limit: number) {
  const file = path.join(dir, `f${Math.random().toString(36).slice(2)}`);
  writeFileSync(file, content);
  const fd = openRegularFile(file);
  if (fd === undefined) throw new Error('not opened');
  try {
    const { bytes, more } = readAtMost(fd, limit);
    return { text: bytes.toString('latin1'), more };
  } finally {
    closeSync(fd);
  }
}

describe('reading at most so many bytes of a file', () => {
  it('reads an empty file, a small one and one of exactly the limit whole', () => {
    expect(readFile('', 8)).toEqual({ text: '', more: false });
    expect(readFile('abc', 8)).toEqual({ text: 'abc', more: false });
    expect(readFile('12345678', 8)).toEqual({ text: '12345678', more: false });
  });

  it('reads a larger file up to the limit and says there is more', () => {
    expect(readFile('123456789', 8)).toEqual({ text: '12345678', more: true });
    const big = Buffer.alloc(300_000, 'x');
    expect(readFile(big, 100_000)).toEqual({ text: 'x'.repeat(100_000), more: true });
  });

  it('opens only regular files', () => {
    expect(openRegularFile(dir)).toBeUndefined();
    expect(openRegularFile('/dev/zero')).toBeUndefined();
    expect(openRegularFile(path.join(dir, 'missing'))).toBeUndefined();
  });
});
