import { describe, expect, it } from 'vitest';
import { highlightWords, toSearchWords } from './log-search-highlight.ts';

describe('highlighting searched words in a log line', () => {
  it('cuts a search text into lower-case words at punctuation and spaces', () => {
    expect(toSearchWords('Disk-Quota  exceeded: web01.example.com')).toEqual([
      'disk',
      'quota',
      'exceeded',
      'web01',
      'example',
      'com',
    ]);
    expect(toSearchWords('>>> ---')).toEqual([]);
  });

  it('marks whole words in any case and leaves the rest of the text as it is', () => {
    expect(highlightWords('fatal: Disk-Quota exceeded on disks', ['disk', 'quota'])).toEqual([
      { text: 'fatal: ', hit: false },
      { text: 'Disk', hit: true },
      { text: '-', hit: false },
      { text: 'Quota', hit: true },
      { text: ' exceeded on disks', hit: false },
    ]);
    expect(highlightWords('quota quota', ['quota'])).toEqual([
      { text: 'quota', hit: true },
      { text: ' ', hit: false },
      { text: 'quota', hit: true },
    ]);
    expect(highlightWords('nothing here', ['disk'])).toEqual([{ text: 'nothing here', hit: false }]);
    expect(highlightWords('', ['disk'])).toEqual([]);
  });
});
